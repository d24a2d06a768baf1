/**
 * Express 5 binding: `createNodeListener` as middleware. A body Express already parsed
 * (`express.json()`) is used as it is; other bodies are read by abkit within its limits.
 */
import express, { type Express } from 'express';
import { createNodeListener } from '../node/index';
import type { Handler } from '../src/index';

export function expressApp(handler: Handler): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json(), createNodeListener(handler));
  return app;
}
