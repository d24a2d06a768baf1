/** Hono binding: abkit's handler already speaks Request/Response. Serve with @hono/node-server. */
import { Hono } from 'hono';
import type { Handler } from '../src/index';

export function honoApp(handler: Handler): Hono {
  const app = new Hono();
  app.all('*', (c) => handler(c.req.raw));
  return app;
}
