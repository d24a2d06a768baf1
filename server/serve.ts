/**
 * `abkit serve`: abkit's interfaces on node:http, configured by environment variables and
 * flags, with JSON logs, Prometheus metrics, health and readiness, CORS, timeouts, a connection
 * cap and a graceful drain on SIGTERM.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { dirname, resolve } from 'node:path';
import pino, { type Logger } from 'pino';
import { AccessManager } from '../src/access/access-manager';
import { AdminKeys } from '../src/access/admin-keys';
import { AdminService } from '../src/admin/service';
import { SearchAnalytics } from '../src/analytics/service';
import { TokenService } from '../src/access/token-service';
import type { CatalogSearchSettings } from '../src/bootstrap/schema';
import { applyBootstrap, createDefaultEnvironment } from '../src/bootstrap/apply';
import { CatalogRegistry } from '../src/catalog/registry';
import { DecisionEngine } from '../src/decision/engine';
import { ExperimentService } from '../src/results/experiments';
import { createHandler } from '../src/http/handler';
import { behaviourSourced } from '../src/search/behaviour-ranking';
import type { Storage } from '../src/storage/storage';
import { createNodeListener } from '../node/listener';
import { bannerLines } from './banner';
import { addressKey, limitConnectionsPerAddress } from './connections';
import { clientAddressOf } from '../src/body';
import { logOutput, type LogOutput } from './log-output';
import type { ServeConfig } from './config';
import { corsPolicy } from './cors';
import { countZeroResults, createMetrics, instrumentCatalogs, instrumentEngine, instrumentExperiments, instrumentTokens } from './metrics';
import { observe } from './observe';
import { defaultStorageSpec, openStorage, redactStorage } from './storage';
import { ADMIN_LIMITS } from '../src/admin/input';

/** A running server. */
export interface RunningServer {
  /** Its base URL. */
  readonly url: string;
  readonly server: Server;
  /** Stops accepting, finishes requests in flight (up to the shutdown timeout), closes the storage. */
  close(): Promise<void>;
}

/** A start failure worth one line (a busy port, a bad bootstrap file), not a stack trace. */
export class StartError extends Error {
  override readonly name = 'StartError';
}

/** A JSON file; a parse error says so without quoting the file (it may hold anything). */
const readJson = async (path: string): Promise<unknown> => {
  const text = await readFile(path, 'utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw new StartError(`${path} is not valid JSON`);
  }
};

/**
 * Starts the server.
 *
 * @example
 * ```ts
 * const running = await serve(parseServeConfig(process.argv.slice(3), process.env));
 * process.on('SIGTERM', () => void running.close());
 * ```
 */
export async function serve(
  config: ServeConfig,
  options: { logger?: Logger; banner?: (line: string) => void } = {},
): Promise<RunningServer> {
  // Never waited on: neither a request nor the exit waits for stdout (see logOutput); close()
  // ends it.
  const destination = options.logger ? undefined : logOutput(process.stdout);
  const logger =
    options.logger ?? pino({ level: config.logLevel, timestamp: pino.stdTimeFunctions.isoTime, base: { pid: process.pid } }, destination);
  const banner = options.banner ?? stderrBanner();
  const spec = config.storage ?? defaultStorageSpec();
  if (config.storage === undefined && spec === 'memory')
    logger.warn('better-sqlite3 is not installed: storage is memory (set ABKIT_STORAGE, or npm install better-sqlite3 to keep data)');
  const storage = await openStorage(spec);
  try {
    return await start(config, storage, logger, banner, redactStorage(spec), destination);
  } catch (error) {
    await storage.close().catch(() => undefined);
    throw error;
  }
}

async function start(
  config: ServeConfig,
  storage: Storage,
  logger: Logger,
  banner: (line: string) => void,
  storageName: string,
  destination: LogOutput | undefined,
): Promise<RunningServer> {
  const metrics = createMetrics();
  destination?.onDropped((lines) => metrics.logLinesDropped.inc(lines));
  const accesses = new AccessManager({ storage, pepper: config.pepper });
  const catalogs = new CatalogRegistry({
    storage,
    pepper: config.pepper,
    onSyncError: (error) => logger.error({ err: error }, 'catalog sync failed'),
  });
  instrumentCatalogs(catalogs, metrics);

  let bootstrap: unknown;
  let defaultEnvironment: string | undefined;
  let bootstrapCatalogs: { identifier: string; syncIntervalMs: number | undefined }[] = [];
  const schedules: { stop(): void }[] = [];
  const bootstrapPath = config.bootstrap === undefined ? undefined : resolve(config.bootstrap);
  // Each catalog's search settings from the bootstrap file (customRanking, synonyms, …).
  const searchSettings = new Map<string, CatalogSearchSettings>();
  if (bootstrapPath) {
    bootstrap = await readJson(bootstrapPath).catch((error: unknown) => {
      if (error instanceof StartError) throw error;
      throw new StartError(
        `ABKIT_BOOTSTRAP: cannot read ${bootstrapPath}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    });
    const setup = new DecisionEngine({ storage, pepper: config.pepper });
    const readRelative = (p: string) => readJson(resolve(dirname(bootstrapPath), p));
    // Paths inside the file stay in its folder unless the operator allows absolute ones.
    const applied = await applyBootstrap(bootstrap, {
      engine: setup,
      accesses,
      catalogs,
      readJsonFile: readRelative,
      allowAbsolutePaths: config.bootstrapAbsolutePaths,
    });
    for (const change of applied.changes) logger.info({ bootstrap: bootstrapPath }, change);
    for (const warning of applied.warnings) logger.warn({ bootstrap: bootstrapPath }, warning);
    defaultEnvironment = applied.defaultEnvironment;
    bootstrapCatalogs = applied.catalogs;
    for (const c of applied.catalogs) searchSettings.set(c.identifier, c.search ?? {});
  }
  // Without a default in the bootstrap file, the one an account set through the admin API (the
  // first such account by id).
  defaultEnvironment ??=
    (await storage.accounts.list(ADMIN_LIMITS.accounts)).find((a) => a.defaultEnvironment !== null)?.defaultEnvironment ?? undefined;
  const engine = new DecisionEngine({ storage, defaultEnvironment, pepper: config.pepper });
  // Without a bootstrap file, an empty storage gets the environment a first /v2 request decides in.
  const createdDefault = bootstrapPath === undefined && (await createDefaultEnvironment(engine));
  if (config.apiKey !== undefined) await requireApiKey(engine, storage, config.apiKey, defaultEnvironment);
  instrumentEngine(engine, metrics);
  const experiments = new ExperimentService({ engine });
  instrumentExperiments(experiments, metrics);
  const adminKeys = config.adminKeys.length > 0 ? new AdminKeys(config.adminKeys) : undefined;
  const tokens = new TokenService({ storage, accesses, adminKeys });
  instrumentTokens(tokens, metrics);
  // Settings stored through the admin API or the CLI apply whether or not the admin API is on:
  // a catalog with stored settings follows their schedule, the others the bootstrap file's.
  const admin = new AdminService({ storage, engine, accesses, tokens, catalogs });
  const managed = new Set(await admin.start());
  for (const c of bootstrapCatalogs)
    if (!managed.has(c.identifier)) schedules.push((await catalogs.get(c.identifier)).startSync({ intervalMs: c.syncIntervalMs }));
  schedules.push(admin);

  const onError = (error: unknown) => logger.error({ err: error }, 'unexpected error');
  const searchAnalytics = new SearchAnalytics({
    storage,
    catalogs,
    retentionDays: config.searchAnalyticsRetentionDays,
    onError: (error) => logger.error({ err: error }, 'search analytics write failed'),
  });
  // Settings turning behaviour ranking on read what search analytics records.
  const sourced = behaviourSourced(searchAnalytics.behaviour);
  const search = {
    registry: catalogs,
    // The same object while the settings are unchanged: the search route rebuilds a catalog's service when it changes.
    options: (identifier: string) => sourced(admin.searchSettings(identifier) ?? searchSettings.get(identifier) ?? NO_SEARCH_SETTINGS),
    onSearch: countZeroResults(metrics),
    analytics: searchAnalytics,
  };
  const handler = createHandler({
    decision: engine,
    experiments,
    access: tokens,
    catalog: catalogs,
    search,
    // The admin API only with a key: without one, /admin/v1 is a 404 like any unknown path.
    // The console's login attempts are limited per client address too (the socket's, as connections are).
    admin: adminKeys
      ? {
          abkit: { admin, searchAnalytics },
          keys: adminKeys,
          console: { clientAddress: (request) => keyOfClient(clientAddressOf(request)) },
        }
      : undefined,
    requestIdHeader: false,
    onError,
  });
  let draining = false;
  const edge = observe({ handler, storage, logger, metrics, cors: corsPolicy(config.corsOrigins), draining: () => draining });

  // Node checks the two timeouts every connectionsCheckingInterval (30 s by default): check
  // often enough that they hold to about a second.
  const server = createServer(
    {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: config.headersTimeoutMs,
      keepAliveTimeout: config.keepAliveTimeoutMs,
      connectionsCheckingInterval: 1_000,
    },
    createNodeListener(edge, { onError, coalesceWrites: config.coalesceWrites }),
  );
  server.maxConnections = config.maxConnections;
  limitConnectionsPerAddress(server, config.maxConnectionsPerIp, () => metrics.connectionsRefused.inc());
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE')
        reject(new StartError(`port ${config.port} on ${config.host} is already in use (set PORT or --port)`));
      else if (error.code === 'EACCES') reject(new StartError(`no permission to listen on ${config.host}:${config.port}`));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
        reject(new StartError(`HOST ${config.host} is not an address of this machine`));
      else reject(error);
    });
    server.listen(config.port, config.host, () => resolveListen());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  logger.info({ url, storage: storageName, bootstrap: bootstrapPath ?? null, cors: config.corsOrigins }, 'listening');
  const adminActors = config.adminKeys.map((k) => k.name);
  if (createdDefault) logger.info({ account: 'default', environment: engine.defaultEnvironment }, 'created the default environment');
  for (const line of bannerLines(url, { bootstrapPath, bootstrap, defaultEnvironment, storage: storageName, adminActors, createdDefault }))
    banner(line);

  // Every step of close() is bounded: the process exits within shutdownTimeoutMs plus a few
  // CLOSE_STEP_MS whatever a client, the storage or stdout does.
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      draining = true;
      for (const s of schedules) s.stop();
      logger.info({ connections: await within(connections(server), CLOSE_STEP_MS, 0) }, 'draining');
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeIdleConnections();
      const deadline = setTimeout(() => server.closeAllConnections(), config.shutdownTimeoutMs);
      if (
        (await within(
          closed.then(() => true),
          config.shutdownTimeoutMs + CLOSE_STEP_MS,
          false,
        )) === false
      )
        logger.warn('connections still open after the shutdown timeout: closing anyway');
      clearTimeout(deadline);
      // Search analytics counted in memory is written before the storage closes.
      if (
        (await within(
          searchAnalytics.close().then(() => true),
          CLOSE_STEP_MS,
          false,
        )) === false
      )
        logger.warn(`search analytics was not written within ${CLOSE_STEP_MS} ms`);
      if (
        (await within(
          storage.close().then(() => true),
          CLOSE_STEP_MS,
          false,
        )) === false
      )
        logger.warn(`storage did not close within ${CLOSE_STEP_MS} ms`);
      logger.info('closed');
      if (destination) {
        // A request cut off by the drain may still log: nothing after 'closed' is written.
        logger.level = 'silent';
        await destination.end(CLOSE_STEP_MS);
      } else await within(new Promise<void>((r) => logger.flush(() => r())), CLOSE_STEP_MS, undefined);
    })());
  return { url, server, close };
}

function connections(server: Server): Promise<number> {
  return new Promise((r) => server.getConnections((_e, n) => r(n ?? 0)));
}

/** The banner on stderr, which may be closed too: a failed write must not end the server. */
function stderrBanner(): (line: string) => void {
  process.stderr.on('error', () => undefined);
  return (line) => process.stderr.write(`${line}\n`);
}

/** How long each shutdown step after the drain may take (closing the storage, writing the last log lines). */
const CLOSE_STEP_MS = 1_000;

/** `promise`'s value, or `fallback` once `ms` pass first. */
function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((r) => (timer = setTimeout(() => r(fallback), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

// The default environment then requires the key; stored only when it changed, so a restart
// does not bump the configuration version.
async function requireApiKey(engine: DecisionEngine, storage: Storage, apiKey: string, environment: string | undefined): Promise<void> {
  const id = environment ?? engine.defaultEnvironment;
  const record = await storage.environments.get(id);
  if (!record) throw new StartError(`ABKIT_API_KEY: the default environment "${id}" does not exist (bootstrap one with "default": true)`);
  // Checked as a request's key is: hashed with the pepper (one stored before it is re-hashed).
  if (
    record.apiKeyHash !== null &&
    (await engine.checkApiKey(id, apiKey).then(
      () => true,
      () => false,
    ))
  )
    return;
  await engine.load(record.config, { environment: id, account: record.accountId, apiKey, expectedVersion: record.version });
}

/** A client address as the per-address limits count it (an IPv6 one by its /64), or undefined. */
function keyOfClient(address: string | undefined): string | undefined {
  return address === undefined ? undefined : addressKey(address);
}

const NO_SEARCH_SETTINGS: CatalogSearchSettings = Object.freeze({});
