import { describe, expect, it } from 'vitest';
import { ConfigError, parseServeConfig } from '../../server/config';

describe('abkit serve configuration', () => {
  it('reads the variables the README lists with their defaults', () => {
    const c = parseServeConfig([], {});
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      storage: undefined,
      bootstrap: undefined,
      corsOrigins: [],
      logLevel: 'info',
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 1_000,
      maxConnectionsPerIp: 256,
      coalesceWrites: true,
    });
    const e = parseServeConfig([], {
      PORT: '9000',
      HOST: '0.0.0.0',
      ABKIT_STORAGE: 'memory',
      ABKIT_BOOTSTRAP: 'b.json',
      ABKIT_PEPPER: 'p'.repeat(16),
      ABKIT_CORS_ORIGINS: 'https://shop.example, http://localhost:3000',
      ABKIT_LOG_LEVEL: 'warn',
      ABKIT_API_KEY: 'k'.repeat(20),
      ABKIT_COALESCE_WRITES: 'off',
    });
    expect(e).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      storage: 'memory',
      bootstrap: 'b.json',
      pepper: 'p'.repeat(16),
      corsOrigins: ['https://shop.example', 'http://localhost:3000'],
      logLevel: 'warn',
      apiKey: 'k'.repeat(20),
      coalesceWrites: false,
    });
  });

  it('takes the same names as flags, which win over the environment', () => {
    const c = parseServeConfig(
      ['--port', '0', '--storage=sqlite:x.db', '--cors-origins', '*', '--ABKIT_LOG_LEVEL=debug', '--api-key', 'a'.repeat(16)],
      { PORT: '1234', ABKIT_STORAGE: 'memory' },
    );
    expect(c).toMatchObject({ port: 0, storage: 'sqlite:x.db', corsOrigins: ['*'], logLevel: 'debug', apiKey: 'a'.repeat(16) });
    expect(parseServeConfig(['--max-connections-per-ip', '10'], { ABKIT_MAX_CONNECTIONS_PER_IP: '20' }).maxConnectionsPerIp).toBe(10);
  });

  it('refuses bad values and unknown flags, naming the variable', () => {
    const fails = (args: string[], env: Record<string, string>, pattern: RegExp) =>
      expect(() => parseServeConfig(args, env)).toThrow(pattern);
    fails([], { PORT: 'http' }, /^PORT must be an integer/);
    fails([], { PORT: '70000' }, /PORT must be at most 65535/);
    fails([], { ABKIT_LOG_LEVEL: 'loud' }, /ABKIT_LOG_LEVEL must be one of/);
    fails([], { ABKIT_PEPPER: 'short' }, /ABKIT_PEPPER must be at least 16/);
    fails([], { ABKIT_API_KEY: 'short' }, /ABKIT_API_KEY must be at least 16/);
    fails([], { ABKIT_CORS_ORIGINS: 'shop.example/path' }, /ABKIT_CORS_ORIGINS: "shop.example\/path" is not an origin/);
    fails([], { ABKIT_COALESCE_WRITES: 'yes' }, /ABKIT_COALESCE_WRITES must be on or off, got "yes"/);
    fails([], { ABKIT_BOOTSTRAP_ABSOLUTE_PATHS: 'on' }, /ABKIT_BOOTSTRAP_ABSOLUTE_PATHS must be allow or deny/);
    fails([], { ABKIT_MAX_CONNECTIONS_PER_IP: '0' }, /^ABKIT_MAX_CONNECTIONS_PER_IP must be an integer of at least 1, got "0"$/);
    fails(['--colour', 'red'], {}, /unknown flag --colour/);
    fails(['--port'], {}, /flag --port needs a value/);
    fails(['serve'], {}, /unexpected argument "serve"/);
    expect(() => parseServeConfig([], { PORT: 'x' })).toThrow(ConfigError);
  });

  it('keeps the headers timeout within the request timeout (node requires it)', () => {
    expect(parseServeConfig([], { ABKIT_REQUEST_TIMEOUT_MS: '2000' }).headersTimeoutMs).toBe(2000);
  });
});
