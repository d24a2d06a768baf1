/**
 * Every interface behind one handler over one storage, with credentials for each: what the
 * reliability tests and the stress suite send requests to.
 */
import { AccessManager, CatalogRegistry, createHandler, DecisionEngine, memoryStorage, TokenService, type Storage } from '../../src/index';
import { config } from './configs';
import { item as searchItem } from './search';

export const CATALOG_KEY = 'abk_ck_stack-catalog-key-0123456789abcdef';
export const SEARCH_KEY = 'abk_sk_stack-search-key-0123456789abcdef';
export const ENV_KEY = 'stack-env-key-0123456789';
export const ENV = '/v1/accounts/acme/environments/prod';

/** A valid item of price 1 (test/helpers/search.ts's item), `extra` over it. */
export const item = (id: string, extra: Record<string, unknown> = {}) => searchItem(id, { price: 1, ...extra });

/** The stack; `errors` collects what reached `onError` (unexpected errors and outages). */
export async function stack(storage: Storage = memoryStorage(), options: { refreshIntervalMs?: number } = {}) {
  const engine = new DecisionEngine({ storage, defaultEnvironment: 'prod', ...options });
  await engine.load(
    config([
      { id: 'c1', split: [50, 50] },
      { id: 'c2', split: [100] },
    ]),
    { environment: 'prod', account: 'acme' },
  );
  await engine.load(config([{ id: 'k1', split: [100] }]), { environment: 'locked', account: 'acme', apiKey: ENV_KEY });
  const accesses = new AccessManager({ storage });
  const tokens = new TokenService({ storage, accesses });
  const registry = new CatalogRegistry({ storage });
  const { catalog } = await registry.create({ identifier: 'shop', catalogApiKey: CATALOG_KEY, searchApiKey: SEARCH_KEY });
  await catalog.batch(
    Array.from({ length: 50 }, (_, i) => ({ operation: 'create-replace' as const, product: item(`p${i}`, { brand: `brand${i % 5}` }) })),
  );
  await catalog.sync();
  const access = await accesses.createAccess({
    account: 'acme',
    name: 'stack',
    environments: ['prod'],
    actions: ['campaigns.read', 'campaigns.write', 'panic.write', 'activations.read'],
  });
  const { accessToken: token } = await tokens.issue({
    accountId: 'acme',
    clientId: access.clientId,
    clientSecret: access.clientSecret,
    expiresIn: 3600,
  });
  const errors: unknown[] = [];
  const handler = createHandler({ decision: engine, access: tokens, catalog: registry, search: registry, onError: (e) => errors.push(e) });
  /** One request; a string body is sent as is, anything else as JSON. */
  const call = (method: string, path: string, init: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
    const body = init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    return handler(new Request(`http://shop.search.test${path}`, { method, headers, body }));
  };
  return { storage, engine, accesses, tokens, registry, catalog, access, token, handler, call, errors };
}

/** `depth` arrays nested around `inner`, as JSON text (built as text: no recursion anywhere). */
export function nestedArrays(depth: number, inner = '1'): string {
  return `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
}

/** `depth` objects `{"a": …}` nested around `inner`, as JSON text. */
export function nestedObjects(depth: number, inner = '1'): string {
  return `${'{"a":'.repeat(depth)}${inner}${'}'.repeat(depth)}`;
}
