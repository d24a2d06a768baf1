/**
 * `abkit/node`: abkit's handler on node:http, Express and Fastify.
 *
 * @packageDocumentation
 * @module abkit/node
 */
export { createNodeListener, writeResponse } from './listener';
export type { NodeListener, NodeListenerOptions } from './listener';
export { nodeRequest } from './request';
export type { NodeRequestLike } from './request';
