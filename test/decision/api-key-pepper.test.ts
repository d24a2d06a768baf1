/**
 * Environment API keys are stored keyed with the pepper, like every other stored secret, and a
 * store written before the pepper was set keeps working (issue #23).
 */
import { describe, expect, it } from 'vitest';
import { AuthenticationError, DecisionEngine, memoryStorage } from '../../src/index';
import { credentialHash, sha256Hex } from '../../src/crypto';
import { config } from '../helpers/configs';

const PEPPER = 'pepper-of-sixteen-chars';
const KEY = 'env-key-0123456789abcdef';
const bucketing = config([{ id: 'c1', split: [100] }]);

describe('environment API keys and the pepper', () => {
  it('are stored as HMAC-SHA-256 under the pepper, verify, and refuse another key', async () => {
    const engine = new DecisionEngine({ storage: memoryStorage(), pepper: PEPPER });
    await engine.load(bucketing, { environment: 'prod', apiKey: KEY });
    const stored = await engine.storage.environments.get('prod');
    expect(stored?.apiKeyHash).toBe(await credentialHash(KEY, PEPPER));
    expect(stored?.apiKeyHash).not.toBe(await sha256Hex(KEY));
    await engine.checkApiKey('prod', KEY);
    await expect(engine.checkApiKey('prod', `${KEY}x`)).rejects.toBeInstanceOf(AuthenticationError);
    // A peppered hash does not verify without the pepper (nor under another one).
    await expect(new DecisionEngine({ storage: engine.storage }).checkApiKey('prod', KEY)).rejects.toBeInstanceOf(AuthenticationError);
    await expect(
      new DecisionEngine({ storage: engine.storage, pepper: 'another-pepper-0123' }).checkApiKey('prod', KEY),
    ).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('a key stored as plain SHA-256 before the pepper was set still verifies, and is stored keyed at its first use (once, even under concurrent uses)', async () => {
    const storage = memoryStorage();
    await new DecisionEngine({ storage }).load(bucketing, { environment: 'prod', account: 'acme', apiKey: KEY });
    const before = (await storage.environments.get('prod'))!;
    expect(before.apiKeyHash).toBe(await sha256Hex(KEY));
    const engine = new DecisionEngine({ storage, pepper: PEPPER });
    // A wrong key neither verifies nor changes anything.
    await expect(engine.checkApiKey('prod', `${KEY}x`)).rejects.toBeInstanceOf(AuthenticationError);
    expect((await storage.environments.get('prod'))?.version).toBe(before.version);
    await Promise.all(Array.from({ length: 20 }, () => engine.checkApiKey('prod', KEY)));
    const after = (await storage.environments.get('prod'))!;
    expect(after.apiKeyHash).toBe(await credentialHash(KEY, PEPPER));
    expect(after).toMatchObject({ version: before.version + 1, accountId: 'acme', config: before.config });
    await engine.checkApiKey('prod', KEY);
    // Another instance with the pepper, its compiled copy older than the upgrade, verifies too.
    await new DecisionEngine({ storage, pepper: PEPPER }).checkApiKey('prod', KEY);
    expect((await storage.environments.get('prod'))?.version).toBe(after.version);
    // The plain hash is gone: the key no longer verifies without the pepper.
    await expect(new DecisionEngine({ storage }).checkApiKey('prod', KEY)).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('without a pepper, keys are plain SHA-256 as before', async () => {
    const engine = new DecisionEngine({ storage: memoryStorage() });
    await engine.load(bucketing, { environment: 'prod', apiKey: KEY });
    expect((await engine.storage.environments.get('prod'))?.apiKeyHash).toBe(await sha256Hex(KEY));
    await engine.checkApiKey('prod', KEY);
  });

  it('refuses a pepper shorter than 16 characters', () => {
    expect(() => new DecisionEngine({ storage: memoryStorage(), pepper: 'short' })).toThrow(
      /DecisionEngine: pepper must be a string of at least 16 characters/,
    );
  });
});
