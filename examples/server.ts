/**
 * The demo server (`npm start`): node:http serving abkit's handler, with the environments of a
 * bootstrap file. Environment: PORT (8080), HOST (127.0.0.1), ABKIT_BOOTSTRAP
 * (examples/demo/bootstrap.json).
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { dirname, resolve } from 'node:path';
import { applyBootstrap, createDecisionHandler, DecisionEngine } from '../src/index';
import { toWebRequest, sendWebResponse } from './node-http';

const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';
const bootstrapPath = resolve(process.env.ABKIT_BOOTSTRAP ?? new URL('./demo/bootstrap.json', import.meta.url).pathname);

const readJson = async (path: string): Promise<unknown> => JSON.parse(await readFile(path, 'utf8'));
const bootstrap = await readJson(bootstrapPath);
// Learn the default environment first: the engine is built around it.
const probe = new DecisionEngine();
const { defaultEnvironment } = await applyBootstrap(bootstrap, { engine: probe, readJsonFile: (p) => readJson(resolve(dirname(bootstrapPath), p)) });
const engine = new DecisionEngine({ storage: probe.storage, defaultEnvironment });
const handler = createDecisionHandler({ engine });

const server = createServer(async (req, res) => {
  const response = await handler(toWebRequest(req, `http://${req.headers.host ?? host}`));
  await sendWebResponse(res, response);
});

server.listen(port, host, () => {
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const base = `http://${host}:${actualPort}`;
  console.log(`abkit demo server on ${base} (bootstrap: ${bootstrapPath})`);
  console.log('Try:');
  console.log(`  curl -s -XPOST ${base}/v2/campaigns -H 'content-type: application/json' -d '{"visitor_id":"v1","context":{"plan":"gold"}}'`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
