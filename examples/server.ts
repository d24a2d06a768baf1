/**
 * The demo server (`npm start`): node:http serving abkit's one handler, seeded by a bootstrap
 * file. Environment: PORT (8080), HOST (127.0.0.1), ABKIT_BOOTSTRAP
 * (examples/demo/bootstrap.json), ABKIT_STORAGE (sqlite:.abkit/abkit.db). Logs one line per
 * request; on SIGTERM or SIGINT it stops accepting, finishes in-flight requests, and closes the
 * storage.
 *
 * Slow or idle clients cannot hold connections: request headers must arrive within 10 s
 * (ABKIT_HEADERS_TIMEOUT_MS), the whole request within 30 s (ABKIT_REQUEST_TIMEOUT_MS), an idle
 * keep-alive connection closes after 5 s, and at most 1,000 connections are open at once
 * (ABKIT_MAX_CONNECTIONS).
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AccessManager, applyBootstrap, CatalogRegistry, createHandler, DecisionEngine, TokenService } from '../src/index';
import { toWebRequest, sendWebResponse } from './node-http';
import { DEFAULT_STORAGE, openStorage } from './storage';

const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';
const bootstrapPath = resolve(process.env.ABKIT_BOOTSTRAP ?? fileURLToPath(new URL('./demo/bootstrap.json', import.meta.url)));

/** A JSON file; a parse error says so without quoting the file (it may hold anything). */
const readJson = async (path: string): Promise<unknown> => {
  const text = await readFile(path, 'utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${path} is not valid JSON`);
  }
};

/** Opens the storage, applies the bootstrap file, and builds the handler. */
async function setUp() {
  const bootstrap = await readJson(bootstrapPath);
  const storage = await openStorage(storageSpec);
  const accesses = new AccessManager({ storage });
  const catalogs = new CatalogRegistry({ storage });
  // Learn the default environment first: the engine is built around it.
  const setup = new DecisionEngine({ storage });
  const readRelative = (p: string) => readJson(resolve(dirname(bootstrapPath), p));
  const allowAbsolutePaths = process.env.ABKIT_BOOTSTRAP_ABSOLUTE_PATHS === 'allow';
  const applied = await applyBootstrap(bootstrap, { engine: setup, accesses, catalogs, readJsonFile: readRelative, allowAbsolutePaths });
  for (const warning of applied.warnings) console.warn(`bootstrap: ${warning}`);
  const schedules = await Promise.all(
    applied.catalogs.map(async (c) => (await catalogs.get(c.identifier)).startSync({ intervalMs: c.syncIntervalMs })),
  );
  const engine = new DecisionEngine({ storage, defaultEnvironment: applied.defaultEnvironment });
  const tokens = new TokenService({ storage, accesses });
  const handler = createHandler({ decision: engine, access: tokens, catalog: catalogs, search: catalogs });
  return { bootstrap, storage, schedules, handler, defaultEnvironment: applied.defaultEnvironment };
}

const storageSpec = process.env.ABKIT_STORAGE ?? DEFAULT_STORAGE;
// A start-up failure (unreadable bootstrap, read-only database, unreachable PostgreSQL) is one
// clear line and exit code 1, not a stack trace.
const { bootstrap, storage, schedules, handler, defaultEnvironment } = await setUp().catch((error: unknown) => {
  console.error(`abkit demo server cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

const limit = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(process.env[name])}`);
  return value;
};
const requestTimeout = limit('ABKIT_REQUEST_TIMEOUT_MS', 30_000);
const headersTimeout = Math.min(limit('ABKIT_HEADERS_TIMEOUT_MS', 10_000), requestTimeout);

let inFlight = 0;
// Node checks the two timeouts every connectionsCheckingInterval (30 s by default): check often
// enough that they hold to about a second.
const server = createServer({ requestTimeout, headersTimeout, keepAliveTimeout: 5_000, connectionsCheckingInterval: 1_000 }, async (req, res) => {
  const started = performance.now();
  inFlight++;
  try {
    const response = await handler(toWebRequest(req, `http://${req.headers.host ?? host}`));
    await sendWebResponse(res, response);
  } catch (error) {
    // Never let one request take the process down.
    console.error(error);
    if (res.headersSent) res.end();
    else res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"internal error"}');
  } finally {
    inFlight--;
    const path = (req.url ?? '/').split('?')[0];
    console.log(`${req.method} ${path} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms`);
  }
});

server.maxConnections = limit('ABKIT_MAX_CONNECTIONS', 1_000);

server.listen(port, host, () => {
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const base = `http://${host}:${actualPort}`;
  console.log(`abkit demo server on ${base} (storage: ${storageSpec.replace(/\/\/[^@/]*@/, '//***@')}, bootstrap: ${bootstrapPath})`);
  console.log('Try:');
  console.log(`  curl -s -XPOST ${base}/v2/campaigns -H 'content-type: application/json' -d '{"visitor_id":"v1","context":{"plan":"gold"}}'`);
  // Never the secrets themselves (they end up in terminals and log files): where to find them.
  const demo = (bootstrap as { accesses?: { account: string }[] }).accesses?.[0];
  if (demo) {
    console.log(`  (CLIENT_ID and CLIENT_SECRET: accesses[0].clientId and .clientSecret in ${bootstrapPath})`);
    console.log(
      `  curl -s -XPOST ${base}/${demo.account}/token -H 'content-type: application/json' -d '{"grant_type":"client_credentials","scope":"*","client_id":"<CLIENT_ID>","client_secret":"<CLIENT_SECRET>"}'`,
    );
    console.log(`  curl -s '${base}/token?access_token=<ACCESS_TOKEN>'`);
    console.log(`  curl -s ${base}/v1/accounts/${demo.account}/environments/${defaultEnvironment}/configuration -H 'authorization: Bearer <ACCESS_TOKEN>'`);
  }
  const shop = (bootstrap as { catalogs?: unknown[] }).catalogs?.[0];
  if (shop) {
    const item = '{"id":"sku-1","is_recommendable":true,"name":"Demo phone","absolute_link":null,"img_link":null,"price":199.99,"categories_ids":["phones"],"color":"black"}';
    console.log(`  curl -sg '${base}/search?text=galaxy&filters[brand][]=Samsung&filters[price][0][operator]=%3C&filters[price][0][value]=500&sort[]=price:asc&hitsPerPage=3'`);
    console.log(`  curl -s '${base}/autocomplete?query=gala&hits_per_page=5'`);
    console.log(`  (CATALOG_API_KEY: catalogs[0].catalogApiKey in ${bootstrapPath})`);
    console.log(`  curl -s -XPUT ${base}/indexes/catalog/sku-1 -H 'authorization: Bearer <CATALOG_API_KEY>' -H 'content-type: application/json' -d '${item}'`);
  }
});

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing ${inFlight} request(s), then closing`);
    for (const schedule of schedules) schedule.stop();
    // close() stops accepting and resolves once in-flight requests have ended.
    server.close(() => {
      storage.close().finally(() => {
        console.log('closed');
        process.exit(0);
      });
    });
    server.closeIdleConnections();
  });
}
