/**
 * Several abkit processes sharing one PostgreSQL (ARCHITECTURE.md, Scale): two demo servers, each a
 * child process (`node --import tsx examples/server.ts`), on one schema. What one process writes,
 * the other serves: campaign changes, synced catalogs, revocations; concurrent batches through
 * both lose nothing.
 *
 * Under CI=true an unreachable PostgreSQL fails this file (postgresAvailable throws); elsewhere
 * it skips with a visible message.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStorage, type SqlStorage } from '../../adapters/sql/postgres';
import { config } from '../helpers/configs';
import { dropSchema, POSTGRES_URL, postgresAvailable, testSchema } from '../helpers/postgres';
import { runScript } from '../helpers/child-script';
import { eventually, startServer, type ServerProcess } from '../helpers/server-process';

const available = await postgresAvailable();

const ACCOUNT = 'acme';
const ENV = 'prod';
const CLIENT_ID = 'mp-client-0001';
const CLIENT_SECRET = 'mp-secret-'.padEnd(48, 'x');
const CATALOG = 'shop';
const CATALOG_KEY = 'mp-catalog-key-'.padEnd(40, 'c');
const SEARCH_KEY = 'mp-search-key-'.padEnd(40, 's');
const ACTIONS = ['campaigns.read', 'campaigns.write', 'panic.write', 'activations.read'];

/** A catalog item with every standard field. */
function item(id: string, name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    is_recommendable: true,
    name,
    absolute_link: null,
    img_link: null,
    price: 10,
    categories_ids: ['misc'],
    color: 'black',
    ...extra,
  };
}

const bootstrap = {
  accounts: [{ id: ACCOUNT, environments: [{ id: ENV, default: true, bucketing: config([{ id: 'split', split: [50, 50] }]) }] }],
  accesses: [{ account: ACCOUNT, name: 'ops', environments: [ENV], actions: ACTIONS, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }],
  catalogs: [
    {
      identifier: CATALOG,
      catalogApiKey: CATALOG_KEY,
      searchApiKey: SEARCH_KEY,
      items: [item('boot-1', 'Blue kettle'), item('boot-2', 'Red toaster'), item('boot-3', 'Green teapot')],
      syncIntervalMs: 1000,
    },
  ],
};

/** `postgres://…?schema=<schema>`: what ABKIT_STORAGE takes. */
function storageSpec(schema: string): string {
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('schema', schema);
  return url.toString();
}

function writeBootstrap(): string {
  const dir = mkdtempSync(join(tmpdir(), 'abkit-mp-'));
  const file = join(dir, 'bootstrap.json');
  writeFileSync(file, JSON.stringify(bootstrap));
  return file;
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

async function issueToken(server: ServerProcess): Promise<string> {
  const res = await post(`${server.url}/${ACCOUNT}/token`, {
    grant_type: 'client_credentials',
    scope: '*',
    client_id: CLIENT_ID,
    client_secret: CLIENT_SECRET,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** The variation of campaign `split` each visitor gets from a server's `/v2/campaigns`. */
async function variations(server: ServerProcess, visitors: string[]): Promise<string[]> {
  return Promise.all(
    visitors.map(async (visitor) => {
      const res = await post(`${server.url}/v2/campaigns`, {
        visitor_id: visitor,
        context: {},
        trigger_hit: false,
        visitor_consent: false,
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { campaigns: { id: string; variation: { id: string } }[] };
      return body.campaigns.find((c) => c.id === 'split')?.variation.id ?? 'none';
    }),
  );
}

let visitorSeq = 0;
const freshVisitors = (n: number) => Array.from({ length: n }, () => `visitor-${process.pid}-${visitorSeq++}`);

async function searchHits(server: ServerProcess, text: string): Promise<{ totalHits: number; ids: string[] }> {
  const res = await fetch(`${server.url}/search?text=${encodeURIComponent(text)}&hitsPerPage=20`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { totalHits: number; hits: { id: string }[] };
  return { totalHits: body.totalHits, ids: body.hits.map((h) => h.id) };
}

function remoteUrl(server: ServerProcess, resource = 'configuration'): string {
  return `${server.url}/v1/accounts/${ACCOUNT}/environments/${ENV}/${resource}`;
}

/** Runs test/helpers/revoke-child.ts: a separate process revokes the access of `clientId`. */
async function revokeInChildProcess(schema: string, clientId: string): Promise<string> {
  const child = runScript('test/helpers/revoke-child.ts', [POSTGRES_URL, schema, clientId]);
  const [, id] = await child.waitFor(/^REVOKED (\S+)$/);
  expect(await child.exited, child.output()).toBe(0);
  return id!;
}

if (available) {
  describe('two server processes sharing one PostgreSQL', () => {
    const schema = testSchema('multiprocess');
    const bootstrapFile = writeBootstrap();
    const env = { ABKIT_STORAGE: storageSpec(schema), ABKIT_BOOTSTRAP: bootstrapFile };
    let a: ServerProcess;
    let b: ServerProcess;
    let storage: SqlStorage;

    beforeAll(async () => {
      // One after the other: the second applies the bootstrap over what the first wrote.
      a = await startServer(env);
      b = await startServer(env);
      storage = await postgresStorage({ connectionString: POSTGRES_URL, schema });
    }, 60_000);

    afterAll(async () => {
      const codes = await Promise.all([a?.stop(), b?.stop()]);
      await storage?.close();
      await dropSchema(schema);
      rmSync(join(bootstrapFile, '..'), { recursive: true, force: true });
      // SIGTERM closes the servers cleanly (exit code 0).
      expect(codes).toEqual([0, 0]);
    }, 30_000);

    it('the second process finds the bootstrap applied by the first and changes nothing', async () => {
      // Bootstrap warnings are lines `bootstrap: …` (stored state differing from the file).
      expect(b.output()).not.toMatch(/^bootstrap: /m);
      expect(await storage.accesses.list(ACCOUNT)).toHaveLength(1);
      expect((await storage.environments.get(ENV))?.version).toBe(1);
      expect(await storage.catalogs.countItems(CATALOG)).toBe(3);
      expect((await searchHits(b, 'kettle')).ids).toEqual(['boot-1']);
    });

    it('a campaign change made through A is served by B within its refresh interval', async () => {
      const before = await variations(b, freshVisitors(40));
      expect(new Set(before)).toEqual(new Set(['split-v0', 'split-v1']));

      const token = await issueToken(a);
      const campaign = config([{ id: 'split', split: [0, 100] }]).campaigns[0]!;
      const res = await fetch(remoteUrl(a, 'campaigns/split'), {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(campaign),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      expect(((await res.json()) as { version: number }).version).toBe(2);

      const elapsed = await eventually(
        'B serves the campaign change made through A',
        async () => (await variations(b, freshVisitors(20))).every((v) => v === 'split-v1'),
        5000,
      );
      console.info(`campaign change through A served by B after ${elapsed} ms`);
      // And it stays so: B re-read the store, it did not happen to pick v1 twenty times.
      expect(new Set(await variations(b, freshVisitors(40)))).toEqual(new Set(['split-v1']));
      expect(new Set(await variations(a, freshVisitors(20)))).toEqual(new Set(['split-v1']));
    });

    it('an item put through A is searchable through B after the scheduled sync', async () => {
      const word = `zyxquorb${Math.random()
        .toString(36)
        .replace(/[^a-z]/g, '')
        .slice(0, 6)}`;
      expect((await searchHits(b, word)).totalHits).toBe(0);
      const res = await fetch(`${a.url}/indexes/catalog/mp-unique`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${CATALOG_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(item('mp-unique', `Lamp ${word}`)),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      const elapsed = await eventually(
        'B finds the item put through A',
        async () => (await searchHits(b, word)).ids.includes('mp-unique'),
        6000,
      );
      console.info(`item put through A found through B after ${elapsed} ms`);
      expect((await searchHits(b, word)).ids).toEqual(['mp-unique']);
      expect((await searchHits(a, word)).ids).toEqual(['mp-unique']);
    });

    it('concurrent batches through A and B lose nothing', async () => {
      const before = await storage.catalogs.countItems(CATALOG);
      const N = 10;
      const SIZE = 500;
      const started = Date.now();
      const responses = await Promise.all(
        Array.from({ length: N }, async (_, n) => {
          const server = n % 2 === 0 ? a : b;
          const ops = Array.from({ length: SIZE }, (_, i) => ({
            operation: 'create-replace',
            product: item(`mp-batch-${n}-${i}`, `Batch widget ${n} ${i}`, { brand: `brand-${n % 3}` }),
          }));
          const res = await post(`${server.url}/indexes/catalog/batch`, ops, { authorization: `Bearer ${CATALOG_KEY}` });
          return { status: res.status, body: (await res.json()) as unknown };
        }),
      );
      console.info(`${N} concurrent batches of ${SIZE} through A and B in ${Date.now() - started} ms`);
      for (const r of responses) expect(r).toEqual({ status: 200, body: { accepted: SIZE, upserted: SIZE, deleted: 0 } });
      expect(await storage.catalogs.countItems(CATALOG)).toBe(before + N * SIZE);
      const [row] = await storage.driver.query<{ n: number; ids: number }>(
        "SELECT COUNT(*) AS n, COUNT(DISTINCT id) AS ids FROM catalog_items WHERE identifier = ? AND id LIKE 'mp-batch-%'",
        [CATALOG],
      );
      expect([Number(row!.n), Number(row!.ids)]).toEqual([N * SIZE, N * SIZE]);
      expect((await storage.catalogs.getItem(CATALOG, 'mp-batch-7-499'))?.name).toBe('Batch widget 7 499');
      // The next scheduled sync publishes them all, whichever process it runs in.
      await eventually('B searches every batched item', async () => (await searchHits(b, 'widget')).totalHits === N * SIZE, 8000, 250);
      expect((await searchHits(a, 'widget')).totalHits).toBe(N * SIZE);
    });

    it('concurrent batches creating the same new fields, in different key orders, lose nothing', async () => {
      // A feed with a spec sheet: every batch of a round brings the same 30 fields no item had,
      // half of the batches in the other key order, as independent clients would send them.
      const before = await storage.catalogs.countItems(CATALOG);
      const ROUNDS = 5;
      const N = 8;
      const SIZE = 50;
      const failures: unknown[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const names = Array.from({ length: 30 }, (_, i) => `spec_${round}_${i}`);
        const responses = await Promise.all(
          Array.from({ length: N }, async (_, n) => {
            const server = n % 2 === 0 ? a : b;
            const order = n % 2 === 0 ? names : [...names].reverse();
            const spec = Object.fromEntries(order.map((name) => [name, 'x']));
            const ops = Array.from({ length: SIZE }, (_, i) => ({
              operation: 'create-replace',
              product: item(`mp-spec-${round}-${n}-${i}`, `Chair ${n} ${i}`, spec),
            }));
            const res = await post(`${server.url}/indexes/catalog/batch`, ops, { authorization: `Bearer ${CATALOG_KEY}` });
            return { status: res.status, body: (await res.json()) as unknown };
          }),
        );
        failures.push(...responses.filter((r) => r.status !== 200).map((r) => ({ round, ...r })));
      }
      expect(failures).toEqual([]);
      expect(await storage.catalogs.countItems(CATALOG)).toBe(before + ROUNDS * N * SIZE);
      const fields = (await storage.catalogs.schema(CATALOG)).filter((f) => f.name.startsWith('spec_'));
      expect(fields).toHaveLength(ROUNDS * 30);
      expect(new Set(fields.map((f) => f.type))).toEqual(new Set(['string']));
    });

    it('batches released at the same instant in two processes, creating the same new fields in opposite key orders, all commit', async () => {
      // The same race as above without HTTP in between: two library processes (pg-batch-child),
      // each holding its batches ready, released together; one sends the fields in the other order.
      // Many fields widen the window in which the two field claims overlap: as many as the limits
      // allow (500 fields per item, 1,000 custom fields per catalog), in a catalog of its own.
      const RACE = 'race';
      await storage.catalogs.createCatalog({
        identifier: RACE,
        catalogKeyHash: 'r'.repeat(64),
        searchKeyHash: 's'.repeat(64),
        createdAt: Date.now(),
      });
      const ROUNDS = 4;
      const BATCHES = 4;
      const FIELDS = 240;
      const ITEMS = 5;
      const args = (label: string, order: string) => [
        POSTGRES_URL,
        schema,
        RACE,
        label,
        order,
        String(BATCHES),
        String(FIELDS),
        String(ITEMS),
      ];
      const children = [
        runScript('test/helpers/pg-batch-child.ts', args('pa', 'forward')),
        runScript('test/helpers/pg-batch-child.ts', args('pb', 'reverse')),
      ];
      const errors: string[] = [];
      try {
        await Promise.all(children.map((c) => c.waitFor(/^READY$/)));
        for (let round = 0; round < ROUNDS; round++) {
          for (const c of children) c.send(`GO ${round}`);
          for (const c of children) {
            const m = await c.waitFor(new RegExp(`^RESULT ${round} (.*)$`));
            errors.push(...(JSON.parse(m[1]!) as { errors: string[] }).errors.map((e) => `round ${round}: ${e}`));
          }
          // Each deadlock costs PostgreSQL's deadlock_timeout (1 s): stop at the first failing round.
          if (errors.length > 0) break;
        }
      } finally {
        for (const c of children) c.send('END');
        await Promise.all(children.map((c) => c.exited));
      }
      expect(errors).toEqual([]);
      expect(await storage.catalogs.countItems(RACE)).toBe(2 * ROUNDS * BATCHES * ITEMS);
      expect((await storage.catalogs.schema(RACE)).filter((f) => f.name.startsWith('f_'))).toHaveLength(ROUNDS * FIELDS);
    });

    it('a token revoked by another process is refused by both servers', async () => {
      const fromA = await issueToken(a);
      const fromB = await issueToken(b);
      // Each server checks (and caches) both tokens first.
      for (const server of [a, b]) {
        for (const token of [fromA, fromB]) {
          const res = await fetch(remoteUrl(server), { headers: { authorization: `Bearer ${token}` } });
          expect(res.status).toBe(200);
          expect(await (await fetch(`${server.url}/token?access_token=${token}`)).json()).toMatchObject({
            active: true,
            client_id: CLIENT_ID,
            account_id: ACCOUNT,
          });
        }
      }
      const accessId = await revokeInChildProcess(schema, CLIENT_ID);
      const [stored] = await storage.accesses.list(ACCOUNT);
      expect(stored).toMatchObject({ id: accessId, clientId: CLIENT_ID });
      expect(stored!.revokedAt).not.toBeNull();

      const refused = async (server: ServerProcess, token: string) => {
        const res = await fetch(remoteUrl(server), { headers: { authorization: `Bearer ${token}` } });
        if (res.status === 200) return false;
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
        return true;
      };
      // TokenService trusts a verified token for cacheTtlMs (2 s) without re-reading the store.
      const elapsed = await eventually(
        'both servers refuse both tokens',
        async () => (await Promise.all([a, b].flatMap((s) => [fromA, fromB].map((t) => refused(s, t))))).every(Boolean),
        5000,
      );
      console.info(`revocation by another process honoured by both servers after ${elapsed} ms`);
      for (const server of [a, b]) {
        for (const token of [fromA, fromB]) {
          expect(await (await fetch(`${server.url}/token?access_token=${token}`)).json()).toEqual({ active: false });
          expect(await refused(server, token)).toBe(true);
        }
        // No new token for the revoked access, from either server.
        const res = await post(`${server.url}/${ACCOUNT}/token`, {
          grant_type: 'client_credentials',
          scope: '*',
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
        });
        expect(res.status).toBe(401);
        expect(await res.json()).toMatchObject({ error: 'invalid_client' });
      }
    });
  });

  describe('two server processes starting at the same moment on an empty schema', () => {
    const schema = testSchema('mpstart');
    const bootstrapFile = writeBootstrap();
    const env = { ABKIT_STORAGE: storageSpec(schema), ABKIT_BOOTSTRAP: bootstrapFile };
    const servers: ServerProcess[] = [];

    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await dropSchema(schema);
      rmSync(join(bootstrapFile, '..'), { recursive: true, force: true });
    }, 30_000);

    it('processes applying the bootstrap file at the same instant all succeed, and it is applied once', async () => {
      // Deploying N instances at once: each opens the empty schema (migrations race) and applies the
      // same bootstrap file. bootstrap-child holds after opening until released, so they collide.
      const ROUNDS = 4;
      const PROCESSES = 3;
      const failures: string[] = [];
      for (let round = 0; round < ROUNDS && failures.length === 0; round++) {
        const roundSchema = testSchema(`mpboot${round}`);
        const children = Array.from({ length: PROCESSES }, () =>
          runScript('test/helpers/bootstrap-child.ts', [POSTGRES_URL, roundSchema, bootstrapFile]),
        );
        try {
          await Promise.all(children.map((c) => c.waitFor(/^READY$/)));
          for (const c of children) c.send('GO');
          const outcomes = await Promise.all(children.map((c) => c.waitFor(/^(APPLIED|FAILED) (.*)$/)));
          failures.push(...outcomes.filter((m) => m[1] === 'FAILED').map((m) => `round ${round}: ${m[2]}`));
          if (failures.length === 0) {
            const reports = outcomes.map(
              (m) =>
                JSON.parse(m[2]!) as { written: string[]; accessesCreated: string[]; warnings: string[]; catalogs: { written: number }[] },
            );
            expect(reports.flatMap((r) => r.written)).toEqual([ENV]);
            expect(reports.flatMap((r) => r.accessesCreated)).toEqual([CLIENT_ID]);
            expect(reports.flatMap((r) => r.warnings)).toEqual([]);
            expect(reports.map((r) => r.catalogs[0]!.written).sort()).toEqual([0, 0, 3]);
          }
          await Promise.all(children.map((c) => c.exited));
        } finally {
          for (const c of children) c.child.kill('SIGKILL');
          await dropSchema(roundSchema);
        }
      }
      expect(failures).toEqual([]);
    }, 60_000);

    it('both start (migrations and bootstrap race safely) and serve the same data', async () => {
      const results = await Promise.allSettled([startServer(env), startServer(env)]);
      for (const r of results) if (r.status === 'fulfilled') servers.push(r.value);
      const failures = results.flatMap((r) => (r.status === 'rejected' ? [String((r.reason as Error).message).slice(0, 2000)] : []));
      expect(failures, 'a server failed to start').toEqual([]);
      const storage = await postgresStorage({ connectionString: POSTGRES_URL, schema });
      try {
        expect(await storage.accesses.list(ACCOUNT)).toHaveLength(1);
        expect(await storage.catalogs.countItems(CATALOG)).toBe(3);
      } finally {
        await storage.close();
      }
      for (const s of servers) {
        expect(new Set(await variations(s, freshVisitors(40)))).toEqual(new Set(['split-v0', 'split-v1']));
        expect((await searchHits(s, 'teapot')).ids).toEqual(['boot-3']);
        await issueToken(s);
      }
    }, 60_000);
  });
} else {
  describe.skip('two server processes sharing one PostgreSQL (server unreachable)', () => {
    it('skipped', () => {});
  });
}
