/**
 * `npx abkit serve` from a fresh install: the package is packed (`npm pack`), installed into an
 * empty project, and its compiled command is run there (no tsx, no repository files).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeIf, need } from '../helpers/skip';

const root = join(__dirname, '../..');
const built = existsSync(join(root, 'dist/cli.js'));
const project = mkdtempSync(join(tmpdir(), 'abkit-npx-'));
const CLIENT_SECRET = 'a-client-secret-that-must-never-be-printed-0001';
const CATALOG_KEY = 'a-catalog-key-that-must-never-be-printed';
let child: ChildProcess | undefined;
let stdout = '';
let stderr = '';
let base = '';

afterAll(async () => {
  // npx runs the server as its own child, which a signal to npx alone leaves running: the
  // server leads its own process group (detached), and the whole group is stopped.
  if (!child?.pid || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child!.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  await exited;
});

describeIf(need(built, 'dist/ is absent; npm test builds it first'), 'npx abkit serve on a fresh install', () => {
  beforeAll(async () => {
    const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', project], { cwd: root, encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop()!;
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
    // Dependencies come from the local npm cache: no network when it is warm.
    execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', join(project, tarball)], {
      cwd: project,
      stdio: 'pipe',
    });
    writeFileSync(
      join(project, 'bootstrap.json'),
      JSON.stringify({
        accounts: [
          {
            id: 'acme',
            environments: [
              {
                id: 'prod',
                default: true,
                bucketing: {
                  campaigns: [
                    {
                      id: 'hello',
                      type: 'toggle',
                      variationGroups: [
                        {
                          id: 'g',
                          targeting: { targetingGroups: [{ targetings: [{ key: 'fs_all_users', operator: 'EQUALS', value: '' }] }] },
                          variations: [{ id: 'on', allocation: 100, modifications: { type: 'FLAG', value: { hello: true } } }],
                        },
                      ],
                    },
                  ],
                },
              },
            ],
          },
        ],
        accesses: [
          {
            account: 'acme',
            name: 'bot',
            environments: [],
            actions: ['campaigns.read'],
            clientId: 'bot-client',
            clientSecret: CLIENT_SECRET,
          },
        ],
        catalogs: [{ identifier: 'shop', catalogApiKey: CATALOG_KEY, searchApiKey: 'search-key-of-the-npx-test-000000000001', items: [] }],
      }),
    );
    child = spawn('npx', ['--no-install', 'abkit', 'serve', '--port', '0', '--bootstrap', 'bootstrap.json'], {
      cwd: project,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ABKIT_STORAGE: '' },
    });
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start:\n${stdout}\n${stderr}`)), 60_000);
      const poll = setInterval(() => {
        const m = /serving on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
        if (m) {
          clearInterval(poll);
          clearTimeout(timer);
          resolve(m[1]!);
        }
      }, 50);
      child!.on('exit', (code) => reject(new Error(`exited ${code}:\n${stdout}\n${stderr}`)));
    });
  }, 240_000);

  it('answers /v2, /health/ready and /metrics with the named metrics', async () => {
    const decision = await fetch(`${base}/v2/campaigns`, { method: 'POST', body: '{"visitor_id":"v1","trigger_hit":false}' });
    expect(decision.status).toBe(200);
    expect(((await decision.json()) as { campaigns: { id: string }[] }).campaigns.map((c) => c.id)).toEqual(['hello']);
    expect(await (await fetch(`${base}/health/ready`)).json()).toEqual({ status: 'ok' });
    await fetch(`${base}/token?access_token=abk_at_nothing`);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    for (const name of [
      'abkit_http_request_duration_seconds_bucket',
      'abkit_decisions_total',
      'abkit_activations_total',
      'abkit_campaigns_matched_total',
      'abkit_token_checks_total',
      'abkit_catalog_operations_total',
      'abkit_catalog_syncs_total',
      'abkit_search_duration_seconds',
      'abkit_search_zero_results_total',
      'abkit_process_resident_memory_bytes',
    ]) {
      expect(metrics).toContain(name);
    }
  });

  it('abkit --version prints the installed package version; the bootstrap JSON Schema ships with it', () => {
    const installed = JSON.parse(readFileSync(join(project, 'node_modules/abkit/package.json'), 'utf8')) as { version: string };
    expect(execFileSync('npx', ['--no-install', 'abkit', '--version'], { cwd: project, encoding: 'utf8' })).toBe(`${installed.version}\n`);
    expect(execFileSync('npx', ['--no-install', 'abkit', '--help'], { cwd: project, encoding: 'utf8' })).toMatch(/^ {2}validate /m);
    const schema = JSON.parse(readFileSync(join(project, 'node_modules/abkit/docs/bootstrap.schema.json'), 'utf8')) as {
      properties: object;
    };
    expect(Object.keys(schema.properties)).toEqual(['$schema', 'accounts', 'accesses', 'catalogs']);
  });

  it('logs JSON lines with a request id, and never a secret', async () => {
    await fetch(`${base}/v2/campaigns`, { method: 'POST', body: '{"visitor_id":"v2"}', headers: { 'x-request-id': 'npx-req-1' } });
    await new Promise((r) => setTimeout(r, 100));
    const lines = stdout.split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(2);
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed).toContainEqual(expect.objectContaining({ msg: 'request', reqId: 'npx-req-1', route: '/v2/campaigns', status: 200 }));
    // better-sqlite3 is an optional peer: without it the command says it runs in memory.
    expect(parsed).toContainEqual(expect.objectContaining({ level: 40, msg: expect.stringContaining('storage is memory') }));
    for (const secret of [CLIENT_SECRET, CATALOG_KEY]) expect(stdout + stderr).not.toContain(secret);
  });
});
