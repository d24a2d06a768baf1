import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bootstrapJsonSchema } from '../src/bootstrap/schema';
import {
  AccessManager,
  AuthenticationError,
  applyBootstrap,
  CatalogRegistry,
  DecisionEngine,
  TokenService,
  ValidationError,
  memoryStorage,
} from '../src/index';
import { credentialHash, sha256Hex } from '../src/crypto';
import { config } from './helpers/configs';
import { describeIf, need } from './helpers/skip';
import { checkBootstrap } from '../src/http/index';

const root = join(__dirname, '..');

const file = {
  accounts: [
    {
      id: 'acme',
      environments: [
        { id: 'prod', default: true, apiKey: 'k-0123456789abcdef', bucketing: config([{ id: 'c1', split: [100] }]) },
        { id: 'staging', bucketingFile: 'staging.json' },
      ],
    },
  ],
};
const readJsonFile = async (path: string) => {
  if (path !== 'staging.json') throw new Error(`unexpected ${path}`);
  return config([{ id: 's1', split: [100] }]);
};

describe('applyBootstrap', () => {
  it('creates the environments and reports the default', async () => {
    const engine = new DecisionEngine({ storage: memoryStorage() });
    const report = await applyBootstrap(file, { engine, readJsonFile });
    expect(report).toEqual({
      defaultEnvironment: 'prod',
      written: ['prod', 'staging'],
      unchanged: [],
      accessesCreated: [],
      accessesUnchanged: [],
      accessesRevoked: [],
      changes: [],
      warnings: [],
      catalogs: [],
    });
    expect((await engine.storage.environments.get('staging'))?.config.campaigns[0]?.id).toBe('s1');
    await expect(engine.checkApiKey('prod', null)).rejects.toThrow(/x-api-key/);
    await engine.checkApiKey('prod', 'k-0123456789abcdef');
  });

  it('is idempotent: a second run writes nothing', async () => {
    const engine = new DecisionEngine({ storage: memoryStorage() });
    await applyBootstrap(file, { engine, readJsonFile });
    const again = await applyBootstrap(file, { engine, readJsonFile });
    expect(again.written).toEqual([]);
    expect(again.unchanged).toEqual(['prod', 'staging']);
    expect(await engine.storage.environments.version('prod')).toBe(1);
  });

  it('rejects a bad file with the path inside the bootstrap file', async () => {
    const bad = structuredClone(file) as any;
    bad.accounts[0].environments[0].bucketing.campaigns[0].variationGroups[0].variations[0].allocation = 101;
    const error = (await applyBootstrap(bad, { engine: new DecisionEngine({ storage: memoryStorage() }), readJsonFile }).catch(
      (e) => e,
    )) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.details[0]!.path).toEqual([
      'accounts',
      0,
      'environments',
      0,
      'bucketing',
      'campaigns',
      0,
      'variationGroups',
      0,
      'variations',
      0,
      'allocation',
    ]);
  });

  it('rejects two default environments and an environment with both bucketing and bucketingFile', async () => {
    const two = structuredClone(file) as any;
    two.accounts[0].environments[1].default = true;
    await expect(applyBootstrap(two, { engine: new DecisionEngine({ storage: memoryStorage() }), readJsonFile })).rejects.toThrow(
      /several default environments/,
    );
    const both = structuredClone(file) as any;
    both.accounts[0].environments[1].bucketing = { campaigns: [] };
    await expect(applyBootstrap(both, { engine: new DecisionEngine({ storage: memoryStorage() }), readJsonFile })).rejects.toThrow(
      /exactly one of bucketing and bucketingFile/,
    );
  });
});

describe('applyBootstrap: environment API keys under a pepper (issue #23)', () => {
  const PEPPER = 'pepper-of-sixteen-chars';

  it('stores the key keyed with the engine pepper, and a second run finds it unchanged', async () => {
    const engine = new DecisionEngine({ storage: memoryStorage(), pepper: PEPPER });
    await applyBootstrap(file, { engine, readJsonFile });
    expect((await engine.storage.environments.get('prod'))?.apiKeyHash).toBe(await credentialHash('k-0123456789abcdef', PEPPER));
    const again = await applyBootstrap(file, { engine, readJsonFile });
    expect(again).toMatchObject({ written: [], unchanged: ['prod', 'staging'], warnings: [] });
    expect(await engine.storage.environments.version('prod')).toBe(1);
  });

  it('finds a key stored as plain SHA-256 before the pepper was set unchanged, and stores it keyed; another key is a warning', async () => {
    const storage = memoryStorage();
    await applyBootstrap(file, { engine: new DecisionEngine({ storage }), readJsonFile });
    expect((await storage.environments.get('prod'))?.apiKeyHash).toBe(await sha256Hex('k-0123456789abcdef'));
    const engine = new DecisionEngine({ storage, pepper: PEPPER });
    const report = await applyBootstrap(file, { engine, readJsonFile });
    expect(report).toMatchObject({ written: [], unchanged: ['prod', 'staging'], warnings: [] });
    expect((await storage.environments.get('prod'))?.apiKeyHash).toBe(await credentialHash('k-0123456789abcdef', PEPPER));
    // Another key in the file replaces the stored one; no key in the file leaves it.
    const otherKey = structuredClone(file);
    otherKey.accounts[0]!.environments[0]!.apiKey = 'k-another-key-0123456';
    expect(await applyBootstrap(otherKey, { engine, readJsonFile })).toMatchObject({
      changes: ['environment prod: apiKey replaced'],
      warnings: [],
    });
    expect((await storage.environments.get('prod'))?.apiKeyHash).toBe(await credentialHash('k-another-key-0123456', PEPPER));
    const noKey = structuredClone(file) as { accounts: { environments: { apiKey?: string }[] }[] };
    delete noKey.accounts[0]!.environments[0]!.apiKey;
    expect(await applyBootstrap(noKey, { engine, readJsonFile })).toMatchObject({
      changes: [],
      warnings: [],
      unchanged: ['prod', 'staging'],
    });
    await engine.checkApiKey('prod', 'k-another-key-0123456');
  });
});

describe('applyBootstrap: accesses', () => {
  const withAccess = {
    ...file,
    accesses: [
      {
        account: 'acme',
        name: 'deploy-bot',
        environments: ['prod'],
        actions: ['campaigns.read'],
        clientId: 'deploy-bot-id',
        clientSecret: 's'.repeat(40),
      },
    ],
  };

  it('creates credentials that work, idempotently, storing only the hash', async () => {
    const { AccessManager, TokenService } = await import('../src/index');
    const engine = new DecisionEngine({ storage: memoryStorage() });
    const accesses = new AccessManager({ storage: engine.storage });
    const first = await applyBootstrap(withAccess, { engine, accesses, readJsonFile });
    expect(first.accessesCreated).toEqual(['deploy-bot-id']);
    const second = await applyBootstrap(withAccess, { engine, accesses, readJsonFile });
    expect(second.accessesUnchanged).toEqual(['deploy-bot-id']);
    expect(await engine.storage.accesses.list('acme')).toHaveLength(1);
    expect(JSON.stringify(await engine.storage.accesses.list('acme'))).not.toContain('s'.repeat(40));
    const tokens = new TokenService({ storage: engine.storage, accesses });
    const issued = await tokens.issue({ accountId: 'acme', clientId: 'deploy-bot-id', clientSecret: 's'.repeat(40) });
    expect(issued.scope).toBe('campaigns.read');
  });

  it('never overwrites an environment changed since (through the API), and says so', async () => {
    const engine = new DecisionEngine({ storage: memoryStorage() });
    await applyBootstrap(file, { engine, readJsonFile });
    await engine.load(config([{ id: 'c1', split: [100] }], { panic: true }), {
      environment: 'prod',
      account: 'acme',
      apiKey: 'k-0123456789abcdef',
    });
    const report = await applyBootstrap(file, { engine, readJsonFile });
    expect(report.written).toEqual([]);
    expect(report.warnings).toEqual([
      'environment prod: its campaigns differ from the bootstrap file (changed through the API); the stored ones are kept',
    ]);
    expect((await engine.storage.environments.get('prod'))?.config.panic).toBe(true);
  });

  it('names the field of an invalid access', async () => {
    const { AccessManager } = await import('../src/index');
    const engine = new DecisionEngine({ storage: memoryStorage() });
    const bad = structuredClone(withAccess);
    bad.accesses[0]!.actions = ['campaigns.read', 'launch.missiles'];
    bad.accesses[0]!.environments = ['nowhere'];
    const error = (await applyBootstrap(bad, { engine, accesses: new AccessManager({ storage: engine.storage }), readJsonFile }).catch(
      (e) => e,
    )) as ValidationError;
    // The unknown action is a problem of the file itself (the schema); the environment, which
    // may have been created through the API, is checked against the store once the file parses.
    expect(error.details.map((d) => d.path)).toEqual([['accesses', 0, 'actions', 1]]);
    bad.accesses[0]!.actions = ['campaigns.read'];
    const stored = (await applyBootstrap(bad, { engine, accesses: new AccessManager({ storage: engine.storage }), readJsonFile }).catch(
      (e) => e,
    )) as ValidationError;
    expect(stored.details).toEqual([
      { path: ['accesses', 0, 'environments', 0], message: 'unknown environment "nowhere" for account "acme"' },
    ]);
  });

  it('takes a client id of 1 to 128 visible ASCII characters (RFC 6749 sets no minimum), naming the field otherwise', async () => {
    const { AccessManager } = await import('../src/index');
    const engine = new DecisionEngine({ storage: memoryStorage() });
    const accesses = new AccessManager({ storage: engine.storage });
    const one = structuredClone(withAccess);
    one.accesses[0]!.clientId = 'b';
    expect((await applyBootstrap(one, { engine, accesses, readJsonFile })).accessesCreated).toEqual(['b']);
    for (const clientId of ['', 'x'.repeat(129), 'has space']) {
      const bad = structuredClone(withAccess);
      bad.accesses[0]!.clientId = clientId;
      const error = (await applyBootstrap(bad, { engine, accesses, readJsonFile }).catch((e) => e)) as ValidationError;
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.details.map((d) => d.path)).toEqual([['accesses', 0, 'clientId']]);
    }
  });
});

describe('applyBootstrap: catalogs', () => {
  const product = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    is_recommendable: true,
    name: `P ${id}`,
    absolute_link: null,
    img_link: null,
    price: 10,
    categories_ids: ['x'],
    ...extra,
  });
  const withCatalog = (items: unknown[], fileItems?: unknown[]) => ({
    catalogs: [
      {
        identifier: 'shop',
        catalogApiKey: 'c'.repeat(40),
        searchApiKey: 's'.repeat(40),
        items,
        ...(fileItems ? { itemsFile: 'products.json' } : {}),
      },
    ],
  });

  it('creates the keys, accepts the items (inline and from itemsFile), and syncs once; a second run changes nothing', async () => {
    const { CatalogRegistry } = await import('../src/index');
    const engine = new DecisionEngine({ storage: memoryStorage() });
    const catalogs = new CatalogRegistry({ storage: engine.storage });
    const file = withCatalog([product('a')], [product('b', { color: 'red' })]);
    const read = async () => [product('b', { color: 'red' })];
    const first = await applyBootstrap(file, { engine, catalogs, readJsonFile: read });
    expect(first.catalogs).toEqual([{ identifier: 'shop', written: 2, synced: true, syncIntervalMs: undefined }]);
    const catalog = await catalogs.get('shop');
    expect((await catalog.visible()).items.map((i) => i.id)).toEqual(['a', 'b']);
    expect((await catalogs.authenticate('c'.repeat(40)))?.role).toBe('catalog');
    expect((await catalogs.authenticate('s'.repeat(40)))?.role).toBe('search');
    const second = await applyBootstrap(file, { engine, catalogs, readJsonFile: read });
    expect(second.catalogs).toEqual([{ identifier: 'shop', written: 0, synced: false, syncIntervalMs: undefined }]);
    expect(await catalog.visibleVersion()).toBe(1);
  });

  it('generates a search key when the file has none, and keeps it on the next run', async () => {
    const { CatalogRegistry } = await import('../src/index');
    const engine = new DecisionEngine({ storage: memoryStorage() });
    const catalogs = new CatalogRegistry({ storage: engine.storage });
    const file = { catalogs: [{ identifier: 'shop', catalogApiKey: 'c'.repeat(40), items: [product('a')] }] };
    await applyBootstrap(file, { engine, catalogs });
    const stored = await engine.storage.catalogs.getCatalog('shop');
    expect(stored?.searchKeyHash).toMatch(/^[0-9a-f]{64}$/);
    await applyBootstrap(file, { engine, catalogs });
    expect((await engine.storage.catalogs.getCatalog('shop'))?.searchKeyHash).toBe(stored?.searchKeyHash);
    expect((await catalogs.authenticate('c'.repeat(40)))?.role).toBe('catalog');
  });

  it('names the 1-second floor of syncIntervalMs in its error', async () => {
    const engine = new DecisionEngine({ storage: memoryStorage() });
    const file = { catalogs: [{ ...withCatalog([product('a')]).catalogs[0], syncIntervalMs: 10 }] };
    const error = (await applyBootstrap(file, { engine }).catch((e) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.details).toEqual([
      expect.objectContaining({ path: ['catalogs', 0, 'syncIntervalMs'], message: expect.stringMatching(/at least 1000 \(1 s\)/) }),
    ]);
  });

  it("reports each catalog's search settings, which the search handler applies per catalog", async () => {
    const { CatalogRegistry, createHandler } = await import('../src/index');
    const engine = new DecisionEngine({ storage: memoryStorage() });
    const catalogs = new CatalogRegistry({ storage: engine.storage });
    const search = { customRanking: ['popularity:desc'], synonyms: { oneWay: { tv: ['television'] } } };
    const file = {
      catalogs: [
        {
          ...withCatalog([product('a', { name: 'television', popularity: 1 }), product('b', { name: 'television', popularity: 9 })])
            .catalogs[0],
          search,
        },
      ],
    };
    const report = await applyBootstrap(file, { engine, catalogs });
    expect(report.catalogs[0]!.search).toEqual(search);
    const settings = new Map(report.catalogs.map((c) => [c.identifier, c.search ?? {}]));
    const handler = createHandler({ search: { registry: catalogs, options: (id) => settings.get(id) ?? {} } });
    const body = (await (await handler(new Request('http://x/search?text=tv'))).json()) as { hits: { id: string }[] };
    expect(body.hits.map((h) => h.id)).toEqual(['b', 'a']);
  });

  it('refuses bad search settings, naming them', async () => {
    const { CatalogRegistry } = await import('../src/index');
    const engine = new DecisionEngine({ storage: memoryStorage() });
    for (const [search, path] of [
      [{ rankingRules: ['speed'] }, 'rankingRules'],
      [{ customRanking: ['popularity'] }, 'customRanking'],
      [{ tieBreak: ['price'] }, 'tieBreak'],
      [{ matchingStrategy: 'any' }, 'matchingStrategy'],
      [{ profile: 'grocery' }, 'profile'],
      [{ substitutes: 'yes' }, 'substitutes'],
      [{ keyboard: 'dvorak' }, 'keyboard'],
      [{ synonym: {} }, 'search'],
    ] as const) {
      const file = { catalogs: [{ ...withCatalog([]).catalogs[0], search }] };
      const error = (await applyBootstrap(file, { engine, catalogs: new CatalogRegistry({ storage: engine.storage }) }).catch(
        (e) => e,
      )) as Error;
      expect(error, path).toBeInstanceOf(ValidationError);
      expect(error.message, path).toContain(path);
    }
  });

  it('names the item and field of an invalid item in the file', async () => {
    const { CatalogRegistry } = await import('../src/index');
    const engine = new DecisionEngine({ storage: memoryStorage() });
    const file = withCatalog([product('a', { color: 'red' }), product('b', { color: 5 })]);
    const error = (await applyBootstrap(file, { engine, catalogs: new CatalogRegistry({ storage: engine.storage }) }).catch(
      (e) => e,
    )) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.details.map((d) => d.path)).toEqual([['catalogs', 0, 'items', 1, 'color']]);
  });

  it('a bad item fails before the catalog is created, so the fixed file then loads it', async () => {
    const { CatalogRegistry } = await import('../src/index');
    const engine = new DecisionEngine({ storage: memoryStorage() });
    const catalogs = new CatalogRegistry({ storage: engine.storage });
    const broken = withCatalog([product('a', { price: 'ten' })]);
    await expect(applyBootstrap(broken, { engine, catalogs })).rejects.toThrow(/catalogs\[0\]\.items\[0\]\.price/);
    expect(await catalogs.has('shop')).toBe(false);
    const fixed = await applyBootstrap(withCatalog([product('a')]), { engine, catalogs });
    expect(fixed.catalogs).toEqual([{ identifier: 'shop', written: 1, synced: true, syncIntervalMs: undefined }]);
    expect((await (await catalogs.get('shop')).visible()).items.map((i) => i.id)).toEqual(['a']);
  });
});

describe('applyBootstrap: files it names', () => {
  const withFile = (bucketingFile: string) => ({ accounts: [{ id: 'acme', environments: [{ id: 'e', bucketingFile }] }] });
  const reads: string[] = [];
  const reader = async (path: string) => {
    reads.push(path);
    return config([]);
  };

  it("stay inside the bootstrap file's folder unless absolute paths are allowed", async () => {
    for (const path of ['/etc/passwd', '../secrets.json', 'a/../../b.json', '..\\x.json', 'C:\\x.json', '~/x.json']) {
      const error = await applyBootstrap(withFile(path), {
        engine: new DecisionEngine({ storage: memoryStorage() }),
        readJsonFile: reader,
      }).catch((e: unknown) => e);
      expect(error, path).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).details[0]).toEqual({
        path: ['accounts', 0, 'environments', 0, 'bucketingFile'],
        message: 'outside the bootstrap folder',
      });
    }
    expect(reads).toEqual([]);
    for (const path of ['x.json', './sub/x.json', 'sub/../x.json']) {
      await applyBootstrap(withFile(path), { engine: new DecisionEngine({ storage: memoryStorage() }), readJsonFile: reader });
    }
    await applyBootstrap(withFile('/abs/x.json'), {
      engine: new DecisionEngine({ storage: memoryStorage() }),
      readJsonFile: reader,
      allowAbsolutePaths: true,
    });
    expect(reads).toEqual(['x.json', './sub/x.json', 'sub/../x.json', '/abs/x.json']);
  });

  it('a file that is not JSON is named with the field, without echoing its bytes', async () => {
    const secret = 'root:SECRET-BYTES-0123:0:0';
    const readJsonFile = async () => JSON.parse(secret) as unknown;
    const error = (await applyBootstrap(withFile('x.json'), {
      engine: new DecisionEngine({ storage: memoryStorage() }),
      readJsonFile,
    }).catch((e: unknown) => e)) as Error;
    expect(error.message).toBe('invalid bootstrap file: accounts[0].environments[0].bucketingFile "x.json" cannot be read: not valid JSON');
    expect(JSON.stringify(error)).not.toContain('SECRET');
  });

  it('an environment API key under 16 characters is refused with its path', async () => {
    const short = { accounts: [{ id: 'acme', environments: [{ id: 'e', apiKey: 'k', bucketing: config([]) }] }] };
    await expect(applyBootstrap(short, { engine: new DecisionEngine({ storage: memoryStorage() }) })).rejects.toThrow(
      /accounts\[0\]\.environments\[0\]\.apiKey: must be at least 16 characters/,
    );
  });
});

describe('the bootstrap file format', () => {
  /** A file using every key of the format. */
  const full = {
    $schema: './node_modules/abkit/docs/bootstrap.schema.json',
    accounts: [
      {
        id: 'acme',
        environments: [
          { id: 'prod', default: true, apiKey: 'k-0123456789abcdef', bucketing: config([{ id: 'c1', split: [100] }]) },
          { id: 'staging', apiKey: null, bucketingFile: 'staging.json' },
        ],
      },
    ],
    accesses: [
      {
        account: 'acme',
        name: 'deploy-bot',
        environments: ['prod'],
        actions: ['campaigns.read', 'panic.write'],
        clientId: 'deploy-bot-id',
        clientSecret: 's'.repeat(40),
      },
    ],
    catalogs: [
      {
        identifier: 'shop',
        catalogApiKey: 'c'.repeat(40),
        searchApiKey: 'q'.repeat(40),
        items: [],
        itemsFile: 'products.json',
        syncIntervalMs: 3_600_000,
        search: {
          searchableFields: ['name'],
          boosts: { name: 2 },
          facets: ['brand'],
          rankingRules: ['words', 'typo'],
          customRanking: ['popularity:desc'],
          tieBreak: ['price:asc'],
          matchingStrategy: 'last',
          profile: 'retail',
          stopWords: ['the'],
          synonyms: { multiWay: [['tv', 'television']], oneWay: { phone: ['smartphone'] } },
          priceIntent: { words: ['under'], field: 'price' },
          substitutes: true,
          keyboard: 'azerty',
        },
      },
    ],
  };
  const files = async (path: string) => (path === 'staging.json' ? config([{ id: 's1', split: [100] }]) : []);
  const schema = bootstrapJsonSchema();

  it('a file with every key is valid, and applying it needs nothing else', async () => {
    expect(await checkBootstrap(full, { readJsonFile: files })).toEqual([]);
    const engine = new DecisionEngine({ storage: memoryStorage() });
    const report = await applyBootstrap(full, {
      engine,
      accesses: new AccessManager({ storage: engine.storage }),
      catalogs: new CatalogRegistry({ storage: engine.storage }),
      readJsonFile: files,
    });
    expect(report).toMatchObject({ written: ['prod', 'staging'], accessesCreated: ['deploy-bot-id'], warnings: [] });
  });

  it('a misspelt key is an error naming it and the key it was probably meant to be, not a silent start with nothing loaded', async () => {
    const error = (await applyBootstrap({ acounts: [] }, { engine: new DecisionEngine({ storage: memoryStorage() }) }).catch(
      (e) => e,
    )) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toBe('invalid bootstrap file: acounts: unknown key "acounts" (did you mean "accounts"?)');
    expect(error.details).toEqual([{ path: ['acounts'], message: 'unknown key "acounts" (did you mean "accounts"?)' }]);
    const nested = structuredClone(full) as any;
    nested.accesses[0].clientID = nested.accesses[0].clientId;
    delete nested.accesses[0].clientId;
    nested.catalogs[0].search.synonym = {};
    expect(await checkBootstrap(nested, { readJsonFile: files })).toEqual([
      { path: ['accesses', 0, 'clientId'], message: expect.stringMatching(/expected string/) },
      { path: ['accesses', 0, 'clientID'], message: 'unknown key "clientID" (did you mean "clientId"?)' },
      { path: ['catalogs', 0, 'search', 'synonym'], message: 'unknown key "synonym" (did you mean "synonyms"?)' },
    ]);
  });

  it('a key far from every known one lists the known keys; several unknown keys of one object are a problem each', async () => {
    const file = { accounts: [{ id: 'a', environments: [], owner: 'me', region: 'eu' }] };
    expect(await checkBootstrap(file)).toEqual([
      { path: ['accounts', 0, 'owner'], message: 'unknown key "owner"; known: id, environments' },
      { path: ['accounts', 0, 'region'], message: 'unknown key "region"; known: id, environments' },
    ]);
  });

  it('property: a key the format does not define, added to any of its objects, is a problem at that object naming the key', async () => {
    // Every key the format defines anywhere (from its JSON Schema): the added key is none of them.
    const known = new Set<string>();
    const collect = (node: unknown) => {
      if (node === null || typeof node !== 'object') return;
      const properties = (node as { properties?: Record<string, unknown> }).properties;
      if (properties) for (const k of Object.keys(properties)) known.add(k);
      for (const child of Object.values(node)) collect(child);
    };
    collect(schema);
    // The objects of the format (not the free-form bucketing configurations, items, boosts or oneWay).
    const objects: (string | number)[][] = [
      [],
      ['accounts', 0],
      ['accounts', 0, 'environments', 0],
      ['accounts', 0, 'environments', 1],
      ['accesses', 0],
      ['catalogs', 0],
      ['catalogs', 0, 'search'],
      ['catalogs', 0, 'search', 'synonyms'],
      ['catalogs', 0, 'search', 'priceIntent'],
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...objects),
        fc.string({ minLength: 1, maxLength: 20 }).filter((k) => !known.has(k) && k !== '__proto__'),
        async (where, key) => {
          const file = structuredClone(full) as any;
          const target = where.reduce((node, step) => node[step], file);
          target[key] = 1;
          const problems = await checkBootstrap(file, { readJsonFile: files });
          expect(problems).toEqual([{ path: [...where, key], message: expect.stringMatching(/^unknown key /) }]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('checkBootstrap lists every problem at once: the schema, the inline campaign configurations, and the files named', async () => {
    const file = structuredClone(full) as any;
    file.acounts = [];
    file.accounts[0].environments[0].bucketing.campaigns[0].id = 5;
    const problems = await checkBootstrap(file, { readJsonFile: files });
    expect(problems.map((p) => p.path)).toEqual([['acounts'], ['accounts', 0, 'environments', 0, 'bucketing', 'campaigns', 0, 'id']]);
    delete file.acounts;
    const missing = async (path: string) => {
      throw new Error(`ENOENT: ${path}`);
    };
    const all = await checkBootstrap(file, { readJsonFile: missing });
    expect(all.map((p) => p.path)).toEqual([
      ['accounts', 0, 'environments', 0, 'bucketing', 'campaigns', 0, 'id'],
      ['accounts', 0, 'environments', 1, 'bucketingFile'],
      ['catalogs', 0, 'itemsFile'],
    ]);
  });

  it('refuses, by path, what applying would trip on: ids given twice, two defaults, equal catalog keys, intervals and keys past their limits', async () => {
    const file = structuredClone(full) as any;
    file.accounts[0].environments[1].default = true;
    file.accounts.push({ id: 'acme', environments: [{ id: 'prod', bucketing: config([]) }] });
    file.accesses.push({ ...file.accesses[0] });
    file.catalogs[0].searchApiKey = file.catalogs[0].catalogApiKey;
    expect(await checkBootstrap(file, { readJsonFile: files })).toEqual([
      {
        path: ['accounts', 0, 'environments', 1, 'default'],
        message: expect.stringMatching(/^several default environments \(prod, staging\)/),
      },
      { path: ['accounts', 1, 'id'], message: 'account "acme" is given twice (first at accounts[0].id)' },
      {
        path: ['accounts', 1, 'environments', 0, 'id'],
        message: 'environment id (unique across accounts) "prod" is given twice (first at accounts[0].environments[0].id)',
      },
      { path: ['accesses', 1, 'clientId'], message: 'clientId "deploy-bot-id" is given twice (first at accesses[0].clientId)' },
      { path: ['catalogs', 0, 'searchApiKey'], message: 'must differ from catalogApiKey' },
    ]);
    const limits = structuredClone(full) as any;
    limits.catalogs[0].syncIntervalMs = 2 ** 31;
    limits.catalogs[0].catalogApiKey = 'c'.repeat(513);
    limits.accesses[0].clientSecret = 'short';
    expect(await checkBootstrap(limits, { readJsonFile: files })).toEqual([
      { path: ['accesses', 0, 'clientSecret'], message: 'must be at least 32 characters' },
      { path: ['catalogs', 0, 'catalogApiKey'], message: 'must be at most 512 characters' },
      { path: ['catalogs', 0, 'syncIntervalMs'], message: expect.stringMatching(/^must be at most 2147483647/) },
    ]);
  });

  it('docs/bootstrap.schema.json is the JSON Schema generated from the schema abkit applies (regenerate: npx vitest run test/bootstrap.test.ts -u)', async () => {
    await expect(`${JSON.stringify(schema, null, 2)}\n`).toMatchFileSnapshot('../docs/bootstrap.schema.json');
    expect(schema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', additionalProperties: false });
  });
});

const ajvPath = (() => {
  try {
    return createRequire(import.meta.url).resolve('ajv/dist/2020');
  } catch {
    return undefined;
  }
})();
describeIf(need(ajvPath !== undefined, 'ajv (a dependency of the OpenAPI validator) is absent'), 'docs/bootstrap.schema.json', () => {
  it('accepts the demo bootstrap file and refuses a misspelt key, a short secret and an unknown action, as abkit does', async () => {
    const { default: Ajv2020 } = (await import(ajvPath!)) as { default: new (o: object) => import('ajv').default };
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(
      JSON.parse(readFileSync(join(root, 'docs/bootstrap.schema.json'), 'utf8')),
    );
    const demo = JSON.parse(readFileSync(join(root, 'examples/demo/bootstrap.json'), 'utf8'));
    expect(validate(demo), JSON.stringify(validate.errors)).toBe(true);
    expect(await checkBootstrap(demo, { readJsonFile: async () => [] })).toEqual([]);
    for (const bad of [
      { acounts: [] },
      { accesses: [{ ...demo.accesses[0], clientSecret: 'short' }] },
      { accesses: [{ ...demo.accesses[0], actions: ['launch.missiles'] }] },
      { accounts: [{ id: 'a', environments: [{ id: 'e', bucketing: { campaigns: 'none' } }] }] },
    ]) {
      expect(validate(bad), JSON.stringify(bad)).toBe(false);
      expect((await checkBootstrap(bad)).length, JSON.stringify(bad)).toBeGreaterThan(0);
    }
  });
});

describe('applyBootstrap: what the file manages', () => {
  const SECRET = 's'.repeat(40);
  const NEW_SECRET = 'n'.repeat(40);
  const access = (clientId: string, extra: Record<string, unknown> = {}) => ({
    account: 'acme',
    name: clientId,
    environments: ['prod'],
    actions: ['campaigns.read'],
    clientId,
    clientSecret: SECRET,
    ...extra,
  });
  const withAccesses = (accesses: unknown[], catalogApiKey = 'c'.repeat(40)) => ({
    ...file,
    accesses,
    catalogs: [{ identifier: 'shop', catalogApiKey, searchApiKey: 'q'.repeat(40) }],
  });
  const stack = (storage = memoryStorage()) => {
    const engine = new DecisionEngine({ storage });
    const accesses = new AccessManager({ storage });
    const tokens = new TokenService({ storage, accesses });
    const catalogs = new CatalogRegistry({ storage });
    return {
      storage,
      engine,
      accesses,
      tokens,
      catalogs,
      apply: (f: unknown) => applyBootstrap(f, { engine, accesses, catalogs, readJsonFile }),
    };
  };
  const token = (tokens: TokenService, clientId: string, clientSecret = SECRET) =>
    tokens.issue({ accountId: 'acme', clientId, clientSecret }).then((t) => t.accessToken);
  const refused = (promise: Promise<unknown>) => expect(promise).rejects.toBeInstanceOf(AuthenticationError);

  it('is idempotent: a second start with the same file writes nothing and changes nothing', async () => {
    const { storage, apply } = stack();
    const f = withAccesses([access('bot-a'), access('bot-b')]);
    await apply(f);
    const before = {
      environments: await storage.environments.list(),
      accesses: await storage.accesses.list('acme'),
      catalog: await storage.catalogs.getCatalog('shop'),
    };
    const again = await apply(f);
    expect(again).toMatchObject({
      written: [],
      unchanged: ['prod', 'staging'],
      accessesCreated: [],
      accessesUnchanged: ['bot-a', 'bot-b'],
      accessesRevoked: [],
      changes: [],
      warnings: [],
      catalogs: [{ identifier: 'shop', written: 0, synced: false }],
    });
    expect({
      environments: await storage.environments.list(),
      accesses: await storage.accesses.list('acme'),
      catalog: await storage.catalogs.getCatalog('shop'),
    }).toEqual(before);
  });

  it('revokes an access the file created once it no longer declares it: its secret and its tokens stop at once', async () => {
    const { accesses, tokens, apply } = stack();
    await apply(withAccesses([access('bot-a'), access('bot-b')]));
    const [a, b] = await accesses.storage.accesses.list('acme');
    expect([a?.id, b?.id]).toEqual([expect.stringMatching(/^bootstrap_/), expect.stringMatching(/^bootstrap_/)]);
    const issued = await token(tokens, 'bot-a');
    await tokens.authorize(issued, { account: 'acme', action: 'campaigns.read', environment: 'prod' });
    const report = await apply(withAccesses([access('bot-b')]));
    expect(report).toMatchObject({
      accessesRevoked: ['bot-a'],
      accessesUnchanged: ['bot-b'],
      changes: ['access bot-a: revoked (no longer in the bootstrap file)'],
    });
    await refused(tokens.authorize(issued, { account: 'acme', action: 'campaigns.read', environment: 'prod' }));
    await refused(token(tokens, 'bot-a'));
    await token(tokens, 'bot-b');
    // Kept for audit, revoked; the next start has nothing more to do, and declaring it again does not bring it back.
    expect((await accesses.findByClientId('bot-a'))?.revokedAt).not.toBeNull();
    expect(await apply(withAccesses([access('bot-b')]))).toMatchObject({ accessesRevoked: [], changes: [] });
    expect((await apply(withAccesses([access('bot-a'), access('bot-b')]))).warnings).toEqual([
      'access bot-a was revoked through the API and stays revoked (declare one with another clientId)',
    ]);
    await refused(token(tokens, 'bot-a'));
    // A file with no accesses at all revokes every access it created.
    expect((await apply(file)).accessesRevoked).toEqual(['bot-b']);
  });

  it('replaces the secret of an access the file created when the file changes it: the old secret stops', async () => {
    const { accesses, tokens, apply } = stack();
    await apply(withAccesses([access('bot-a')]));
    const id = (await accesses.findByClientId('bot-a'))?.id;
    const report = await apply(withAccesses([access('bot-a', { clientSecret: NEW_SECRET })]));
    expect(report).toMatchObject({ changes: ['access bot-a: clientSecret replaced'], warnings: [], accessesUnchanged: [] });
    await refused(token(tokens, 'bot-a', SECRET));
    await token(tokens, 'bot-a', NEW_SECRET);
    expect((await accesses.findByClientId('bot-a'))?.id).toBe(id);
    expect(JSON.stringify(await accesses.storage.accesses.list('acme'))).not.toContain(NEW_SECRET);
    expect(await apply(withAccesses([access('bot-a', { clientSecret: NEW_SECRET })]))).toMatchObject({
      changes: [],
      accessesUnchanged: ['bot-a'],
    });
  });

  it('never touches an access created through the API, even when the file names its client id', async () => {
    const { accesses, tokens, apply } = stack();
    await apply(file);
    const api = await accesses.createAccess({ account: 'acme', name: 'console', actions: ['campaigns.read'], clientId: 'console-id' });
    expect(api.id).toMatch(/^acc_/);
    expect((await apply(withAccesses([]))).accessesRevoked).toEqual([]);
    const report = await apply(withAccesses([access('console-id', { clientSecret: NEW_SECRET })]));
    expect(report.changes).toEqual([]);
    expect(report.warnings).toEqual([expect.stringMatching(/^access console-id was created through the API .*will not revoke it$/)]);
    await token(tokens, 'console-id', api.clientSecret);
    await refused(token(tokens, 'console-id', NEW_SECRET));
  });

  it("keeps an access's settings and says why: its tokens were issued for them", async () => {
    const { accesses, apply } = stack();
    await apply(withAccesses([access('bot-a')]));
    const report = await apply(withAccesses([access('bot-a', { actions: ['campaigns.read', 'campaigns.write'] })]));
    expect(report.warnings).toEqual([expect.stringMatching(/^access bot-a: its name, environments or actions differ/)]);
    expect((await accesses.findByClientId('bot-a'))?.actions).toEqual(['campaigns.read']);
  });

  it('an environment apiKey: a changed one replaces the stored key, null removes it, absent leaves it (set through the API)', async () => {
    const { engine, apply } = stack();
    await apply(file);
    const keyed = (apiKey: unknown) => {
      const f = structuredClone(file) as any;
      if (apiKey === undefined) delete f.accounts[0].environments[0].apiKey;
      else f.accounts[0].environments[0].apiKey = apiKey;
      return f;
    };
    expect((await apply(keyed('k-rotated-0123456789'))).changes).toEqual(['environment prod: apiKey replaced']);
    await expect(engine.checkApiKey('prod', 'k-0123456789abcdef')).rejects.toThrow();
    await engine.checkApiKey('prod', 'k-rotated-0123456789');
    expect((await apply(keyed(null))).changes).toEqual(['environment prod: apiKey removed']);
    await engine.checkApiKey('prod', null);
    const stored = await engine.getEnvironment('prod');
    await engine.load(stored!.config, { environment: 'prod', account: 'acme', apiKey: 'k-set-through-the-api' });
    expect(await apply(keyed(undefined))).toMatchObject({ changes: [], warnings: [] });
    await engine.checkApiKey('prod', 'k-set-through-the-api');
  });

  it("a catalog's keys follow the file: the old catalog key stops", async () => {
    const { catalogs, apply } = stack();
    await apply(withAccesses([]));
    expect((await catalogs.authenticate('c'.repeat(40)))?.role).toBe('catalog');
    const report = await apply(withAccesses([], 'd'.repeat(40)));
    expect(report.changes).toEqual(['catalog shop: keys replaced']);
    expect(await catalogs.authenticate('c'.repeat(40))).toBeUndefined();
    expect((await catalogs.authenticate('d'.repeat(40)))?.role).toBe('catalog');
  });

  it('holds on SQLite too: revocation on removal and a changed secret, across reopening the database', async () => {
    const { sqliteStorage } = await import('../adapters/sql/sqlite');
    const dir = mkdtempSync(join(tmpdir(), 'abkit-bootstrap-'));
    const open = async () => stack(await sqliteStorage({ filename: join(dir, 'abkit.db') }));
    const first = await open();
    await first.apply(withAccesses([access('bot-a'), access('bot-b')]));
    await first.storage.close();
    const second = await open();
    const report = await second.apply(withAccesses([access('bot-b', { clientSecret: NEW_SECRET })]));
    expect(report).toMatchObject({
      accessesRevoked: ['bot-a'],
      changes: ['access bot-b: clientSecret replaced', 'access bot-a: revoked (no longer in the bootstrap file)'],
    });
    await refused(token(second.tokens, 'bot-a'));
    await refused(token(second.tokens, 'bot-b', SECRET));
    await token(second.tokens, 'bot-b', NEW_SECRET);
    await second.storage.close();
  });
});

describe('AccessManager: a fixed access id', () => {
  it('is taken as given when 1 to 64 of [A-Za-z0-9_-], and refused by name otherwise', async () => {
    const accesses = new AccessManager({ storage: memoryStorage() });
    expect((await accesses.createAccess({ account: 'acme', name: 'n', actions: ['campaigns.read'], id: 'bootstrap_x-1' })).id).toBe(
      'bootstrap_x-1',
    );
    for (const id of ['', 'has space', 'x'.repeat(65), 'a/b']) {
      const error = (await accesses
        .createAccess({ account: 'acme', name: 'n', actions: ['campaigns.read'], id })
        .catch((e) => e)) as ValidationError;
      expect(error.details, id).toEqual([{ path: ['id'], message: 'must be 1 to 64 letters, digits, _ and -' }]);
    }
  });
});
