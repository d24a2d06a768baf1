/**
 * Token issue and check rates, against a baseline measured in the same run: one SHA-256 of a
 * token through Web Crypto, the irreducible work of any check.
 */
import { AccessManager, DecisionEngine, TokenService, memoryStorage } from '../../src/index';
import { createTokenHandler } from '../../src/http/token';
import { sha256Hex } from '../../src/crypto';
import { measure, type Row } from './measure';

export async function benchTokens(): Promise<Row[]> {
  const storage = memoryStorage();
  await new DecisionEngine({ storage }).load({ campaigns: [] }, { environment: 'prod', account: 'acme' });
  const accesses = new AccessManager({ storage });
  const { clientId, clientSecret } = await accesses.createAccess({
    account: 'acme',
    name: 'bench',
    actions: ['campaigns.read', 'campaigns.write'],
  });
  const tokens = new TokenService({ storage, accesses });
  const uncached = new TokenService({ storage, accesses, cacheTtlMs: 1, cacheSize: 1 });
  const handler = createTokenHandler({ tokens });
  const pool = await Promise.all(Array.from({ length: 1000 }, () => tokens.issue({ accountId: 'acme', clientId, clientSecret })));
  const body = JSON.stringify({ grant_type: 'client_credentials', scope: '*', client_id: clientId, client_secret: clientSecret });
  let n = 0;
  const baseline = await measure('baseline: SHA-256 of a token (node:crypto)', () => sha256Hex(pool[n++ % 1000]!.accessToken));
  return [
    baseline,
    await measure(
      'tokens.issue (verify secret, random token, store hash)',
      () => tokens.issue({ accountId: 'acme', clientId, clientSecret }),
      baseline,
    ),
    await measure(
      'tokens.authorize, verified-token cache hit',
      () => tokens.authorize(pool[n++ % 1000]!.accessToken, { account: 'acme', action: 'campaigns.read', environment: 'prod' }),
      baseline,
    ),
    await measure(
      'tokens.introspect, cache miss (token + access read from the store)',
      () => uncached.introspect(pool[n++ % 1000]!.accessToken),
      baseline,
    ),
    await measure(
      'HTTP POST /acme/token',
      async () => {
        const res = await handler(
          new Request('http://bench/acme/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
        );
        await res.text();
      },
      baseline,
    ),
    await measure(
      'HTTP GET /token?access_token=…',
      async () => {
        const res = await handler(new Request(`http://bench/token?access_token=${pool[n++ % 1000]!.accessToken}`));
        await res.text();
      },
      baseline,
    ),
  ];
}
