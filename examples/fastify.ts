/**
 * Fastify 5 binding: abkit's routes in a plugin of their own, where Fastify parses no body (its
 * 1 MB `bodyLimit` would refuse a catalog batch, its JSON parser would answer invalid JSON with
 * its own error, and it has no form-encoded parser): abkit reads each body itself, within its
 * route's limit. The reply is hijacked and written by `createNodeListener`. Being encapsulated,
 * the plugin leaves the host app's own routes and parsers as they are.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { createNodeListener } from '../node/index';
import type { Handler } from '../src/index';

export async function fastifyApp(handler: Handler): Promise<FastifyInstance> {
  const app = Fastify();
  const listener = createNodeListener(handler);
  // The host's own JSON route, parsed by Fastify as usual.
  app.post('/orders', async (request) => ({ received: request.body }));
  await app.register(async (abkit) => {
    abkit.removeAllContentTypeParsers();
    abkit.addContentTypeParser('*', (_request, _payload, done) => done(null));
    abkit.all('/*', (request, reply) => {
      reply.hijack();
      return listener(request.raw, reply.raw);
    });
  });
  return app;
}
