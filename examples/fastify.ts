/** Fastify 5 binding: Fastify leaves bodies unread, abkit's handler streams and answers. */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Handler } from '../src/index';
import { sendWebResponse, toWebRequest } from './node-http';

export function fastifyApp(handler: Handler): FastifyInstance {
  const app = Fastify();
  // abkit reads (and limits) bodies itself: keep Fastify's parsers out of the way.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  app.all('/*', async (request, reply) => {
    const response = await handler(toWebRequest(request.raw, `${request.protocol}://${request.host}`));
    reply.hijack();
    await sendWebResponse(reply.raw, response);
  });
  return app;
}
