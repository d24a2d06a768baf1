/** Express 5 binding: every request goes to abkit's handler (mount no body parser before it). */
import express, { type Express } from 'express';
import type { Handler } from '../src/index';
import { sendWebResponse, toWebRequest } from './node-http';

export function expressApp(handler: Handler): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use((req, res, next) => {
    handler(toWebRequest(req, `${req.protocol}://${req.get('host')}`))
      .then((response) => sendWebResponse(res, response))
      .catch(next);
  });
  return app;
}
