/**
 * Express 5 binding: `createNodeListener` as middleware, with no body parser in front of it.
 * abkit reads each body itself, within its route's limit (a catalog batch up to 50 MB), and
 * answers a bad one with its own JSON error; `express.json()` in front would answer a body over
 * its 100 KB default with Express's HTML 413 page, and invalid JSON with its HTML error page.
 * The host app's own routes take their parser on their own paths.
 */
import express, { type Express } from 'express';
import { createNodeListener } from '../node/index';
import type { Handler } from '../src/index';

export function expressApp(handler: Handler): Express {
  const app = express();
  app.disable('x-powered-by');
  // The host's own JSON routes, with their parser on their paths only.
  app.post('/orders', express.json(), (req, res) => {
    res.json({ received: req.body as unknown });
  });
  app.use(createNodeListener(handler));
  return app;
}
