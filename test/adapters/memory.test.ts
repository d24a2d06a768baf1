import { memoryStorage } from '../../src/index';
import { runConformance } from './conformance';

runConformance('memory', async () => memoryStorage());
