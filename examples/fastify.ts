/**
 * Fastify 5 binding: the reply is hijacked and written by `createNodeListener`; the JSON body
 * Fastify parsed is handed over as `body`, any other body is read by abkit from the raw request.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { createNodeListener } from '../node/index';
import type { Handler } from '../src/index';

export function fastifyApp(handler: Handler): FastifyInstance {
  const app = Fastify();
  const listener = createNodeListener(handler);
  // Bodies Fastify has no parser for stay unread, for abkit to read within its limits.
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  app.all('/*', (request, reply) => {
    reply.hijack();
    return listener(Object.assign(request.raw, { body: request.body ?? undefined }), reply.raw);
  });
  return app;
}
