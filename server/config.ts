/**
 * The configuration of `abkit serve`: environment variables, overridden by the same names as
 * flags (`--port 8080`, `--storage memory`, or `--ABKIT_STORAGE=memory`).
 *
 * @module
 */

import { MAX_ADMIN_KEYS, MIN_ADMIN_KEY_LENGTH, type AdminKey } from '../src/access/admin-keys';

/** What `abkit serve` runs with. */
export interface ServeConfig {
  /** `PORT` (0: any free port). */
  port: number;
  /** `HOST`. */
  host: string;
  /** `ABKIT_STORAGE`: `memory`, `sqlite:<file>` or a `postgres://` URL; undefined = the default. */
  storage: string | undefined;
  /** `ABKIT_BOOTSTRAP`: a bootstrap file, or none. */
  bootstrap: string | undefined;
  /** `ABKIT_BOOTSTRAP_ABSOLUTE_PATHS=allow`: files named in the bootstrap may lie outside its folder. */
  bootstrapAbsolutePaths: boolean;
  /** `ABKIT_PEPPER`: keys the hashes of stored secrets (16+ characters). */
  pepper: string | undefined;
  /** `ABKIT_CORS_ORIGINS`: comma-separated origins allowed on browser-facing routes (`*` for any). */
  corsOrigins: readonly string[];
  /** `ABKIT_LOG_LEVEL`: pino level. */
  logLevel: string;
  /** `ABKIT_API_KEY`: the `x-api-key` the default environment's decision interface then requires. */
  apiKey: string | undefined;
  /** `ABKIT_HEADERS_TIMEOUT_MS` (10 s), `ABKIT_REQUEST_TIMEOUT_MS` (30 s), `ABKIT_KEEP_ALIVE_TIMEOUT_MS` (5 s). */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** `ABKIT_MAX_CONNECTIONS`: open connections at once (1,000). */
  maxConnections: number;
  /**
   * `ABKIT_MAX_CONNECTIONS_PER_IP`: open connections at once from one client address, an IPv6
   * one counted by its /64 (256; no effect at or above `ABKIT_MAX_CONNECTIONS`). Behind a proxy
   * or load balancer, whose address every connection then has, set it to `ABKIT_MAX_CONNECTIONS`.
   */
  maxConnectionsPerIp: number;
  /** `ABKIT_SHUTDOWN_TIMEOUT_MS`: how long SIGTERM waits for requests in flight (10 s). */
  shutdownTimeoutMs: number;
  /** `ABKIT_COALESCE_WRITES=on|off` (on): write the responses of one event-loop turn together (see `NodeListenerOptions.coalesceWrites`). */
  coalesceWrites: boolean;
  /**
   * `ABKIT_ADMIN_KEY`: the admin keys, comma-separated, each `name=key` (the name is the actor in
   * the audit log) or a bare key (actor `admin`, then `admin-2`, …); each at least 32 characters.
   * Empty: the admin API is off.
   */
  adminKeys: readonly AdminKey[];
  /** `ABKIT_SEARCH_ANALYTICS_RETENTION_DAYS`: days of search analytics kept (90, 1 to 3,650). */
  searchAnalyticsRetentionDays: number;
}

/** The variables `abkit serve` reads, each also a flag. */
export const SERVE_VARIABLES = [
  'PORT',
  'HOST',
  'ABKIT_STORAGE',
  'ABKIT_BOOTSTRAP',
  'ABKIT_BOOTSTRAP_ABSOLUTE_PATHS',
  'ABKIT_PEPPER',
  'ABKIT_CORS_ORIGINS',
  'ABKIT_LOG_LEVEL',
  'ABKIT_API_KEY',
  'ABKIT_HEADERS_TIMEOUT_MS',
  'ABKIT_REQUEST_TIMEOUT_MS',
  'ABKIT_KEEP_ALIVE_TIMEOUT_MS',
  'ABKIT_MAX_CONNECTIONS',
  'ABKIT_MAX_CONNECTIONS_PER_IP',
  'ABKIT_SHUTDOWN_TIMEOUT_MS',
  'ABKIT_COALESCE_WRITES',
  'ABKIT_ADMIN_KEY',
  'ABKIT_SEARCH_ANALYTICS_RETENTION_DAYS',
] as const;

type Variable = (typeof SERVE_VARIABLES)[number];

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** A configuration problem: the message names the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** `--cors-origins` and `--CORS_ORIGINS` → `ABKIT_CORS_ORIGINS`; `--port` → `PORT`. */
function variableOf(flag: string): Variable | undefined {
  const upper = flag.replace(/-/g, '_').toUpperCase();
  return SERVE_VARIABLES.find((v) => v === upper || v === `ABKIT_${upper}`);
}

/**
 * Reads the configuration from `env` and `args` (flags win), refusing unknown flags and bad values
 * with a {@link ConfigError} naming the variable.
 *
 * @example
 * ```ts
 * parseServeConfig(['--port', '0', '--storage=memory'], process.env).port; // 0
 * ```
 */
export function parseServeConfig(args: readonly string[], env: Readonly<Record<string, string | undefined>>): ServeConfig {
  const values: Partial<Record<Variable, string>> = {};
  for (const name of SERVE_VARIABLES) if (env[name] !== undefined && env[name] !== '') values[name] = env[name];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const m = /^--([A-Za-z][A-Za-z0-9_-]*)(?:=(.*))?$/s.exec(arg);
    if (!m) throw new ConfigError(`unexpected argument ${JSON.stringify(arg)}; flags are --name value or --name=value`);
    const variable = variableOf(m[1]!);
    if (!variable)
      throw new ConfigError(
        `unknown flag --${m[1]}; known: ${SERVE_VARIABLES.map(
          (v) =>
            `--${v
              .replace(/^ABKIT_/, '')
              .toLowerCase()
              .replace(/_/g, '-')}`,
        ).join(', ')}`,
      );
    const value = m[2] ?? args[++i];
    if (value === undefined) throw new ConfigError(`flag --${m[1]} needs a value`);
    values[variable] = value;
  }
  const integer = (name: Variable, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number => {
    const raw = values[name];
    if (raw === undefined) return fallback;
    if (!/^\d{1,10}$/.test(raw) || Number(raw) < min || Number(raw) > max)
      throw new ConfigError(
        `${name} must be an integer ${max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`}, got ${JSON.stringify(raw)}`,
      );
    return Number(raw);
  };
  const eitherOf = (name: Variable, yes: string, no: string, fallback: boolean): boolean => {
    const raw = values[name];
    if (raw === undefined) return fallback;
    if (raw !== yes && raw !== no) throw new ConfigError(`${name} must be ${yes} or ${no}, got ${JSON.stringify(raw)}`);
    return raw === yes;
  };
  const port = integer('PORT', 8080, 0);
  if (port > 65535) throw new ConfigError(`PORT must be at most 65535, got ${port}`);
  const logLevel = values.ABKIT_LOG_LEVEL ?? 'info';
  if (!LEVELS.includes(logLevel))
    throw new ConfigError(`ABKIT_LOG_LEVEL must be one of ${LEVELS.join(', ')}, got ${JSON.stringify(logLevel)}`);
  const pepper = values.ABKIT_PEPPER;
  if (pepper !== undefined && pepper.length < 16) throw new ConfigError('ABKIT_PEPPER must be at least 16 characters');
  const apiKey = values.ABKIT_API_KEY;
  if (apiKey !== undefined && apiKey.length < 16) throw new ConfigError('ABKIT_API_KEY must be at least 16 characters');
  const corsOrigins = (values.ABKIT_CORS_ORIGINS ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  for (const origin of corsOrigins) {
    if (origin !== '*' && !/^https?:\/\/[^/?#\s]+$/.test(origin))
      throw new ConfigError(`ABKIT_CORS_ORIGINS: ${JSON.stringify(origin)} is not an origin (scheme://host[:port]) or *`);
  }
  const requestTimeoutMs = integer('ABKIT_REQUEST_TIMEOUT_MS', 30_000, 1);
  return {
    port,
    host: values.HOST ?? '127.0.0.1',
    storage: values.ABKIT_STORAGE,
    bootstrap: values.ABKIT_BOOTSTRAP,
    bootstrapAbsolutePaths: eitherOf('ABKIT_BOOTSTRAP_ABSOLUTE_PATHS', 'allow', 'deny', false),
    pepper,
    corsOrigins,
    logLevel,
    apiKey,
    requestTimeoutMs,
    // Node requires headersTimeout <= requestTimeout.
    headersTimeoutMs: Math.min(integer('ABKIT_HEADERS_TIMEOUT_MS', 10_000, 1), requestTimeoutMs),
    keepAliveTimeoutMs: integer('ABKIT_KEEP_ALIVE_TIMEOUT_MS', 5_000, 1),
    maxConnections: integer('ABKIT_MAX_CONNECTIONS', 1_000, 1),
    // A browser opens at most 6 connections to a host and an office behind one address a few
    // dozen; 256 is about a quarter of the default cap, which leaves the rest to everyone else,
    // and more than one instance serves at once to one proxy in front of it.
    maxConnectionsPerIp: integer('ABKIT_MAX_CONNECTIONS_PER_IP', 256, 1),
    shutdownTimeoutMs: integer('ABKIT_SHUTDOWN_TIMEOUT_MS', 10_000, 1),
    coalesceWrites: eitherOf('ABKIT_COALESCE_WRITES', 'on', 'off', true),
    adminKeys: parseAdminKeys(values.ABKIT_ADMIN_KEY),
    searchAnalyticsRetentionDays: integer('ABKIT_SEARCH_ANALYTICS_RETENTION_DAYS', 90, 1, 3650),
  };
}

const ACTOR = /^[A-Za-z0-9._@-]{1,100}$/;

/**
 * `ABKIT_ADMIN_KEY` → its keys. A problem names the variable and the entry by position, never
 * the key itself (the message reaches terminals and logs).
 *
 * @example
 * ```ts
 * parseAdminKeys('ops=abk_ak_…,ci=abk_ak_…'); // [{ name: 'ops', key: 'abk_ak_…' }, { name: 'ci', key: 'abk_ak_…' }]
 * ```
 */
export function parseAdminKeys(raw: string | undefined): AdminKey[] {
  if (raw === undefined) return [];
  const entries = raw.split(',').map((e) => e.trim());
  if (entries.length > MAX_ADMIN_KEYS) throw new ConfigError(`ABKIT_ADMIN_KEY holds ${entries.length} keys; at most ${MAX_ADMIN_KEYS}`);
  const keys: AdminKey[] = [];
  entries.forEach((entry, i) => {
    const at = `ABKIT_ADMIN_KEY: key ${i + 1} of ${entries.length}`;
    if (entry === '') throw new ConfigError(`${at} is empty`);
    const eq = entry.indexOf('=');
    const named = eq > 0 && ACTOR.test(entry.slice(0, eq));
    const name = named ? entry.slice(0, eq) : keys.some((k) => k.name === 'admin') ? `admin-${i + 1}` : 'admin';
    const key = named ? entry.slice(eq + 1) : entry;
    if (key.length < MIN_ADMIN_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key))
      throw new ConfigError(
        `${at} (${name}) must be at least ${MIN_ADMIN_KEY_LENGTH} visible ASCII characters (abkit admin-key prints one)`,
      );
    if (keys.some((k) => k.name === name)) throw new ConfigError(`${at}: the name ${JSON.stringify(name)} is given twice`);
    keys.push({ name, key });
  });
  return keys;
}
