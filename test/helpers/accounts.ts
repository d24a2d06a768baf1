/** Shared fixtures of the access tests. */
import { memoryStorage, type Storage } from '../../src/index';

/** A fixed epoch for fake clocks. */
export const T0 = 1_700_000_000_000;

/** Storage with environments prod and staging for acme, and gprod for globex. */
export async function seeded(): Promise<Storage> {
  const storage = memoryStorage();
  for (const [id, accountId] of [
    ['prod', 'acme'],
    ['staging', 'acme'],
    ['gprod', 'globex'],
  ] as const) {
    await storage.environments.put({ id, accountId, config: { campaigns: [] } });
  }
  return storage;
}
