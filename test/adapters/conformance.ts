/**
 * The storage conformance suite: every adapter runs it unchanged.
 * Call `runConformance(name, open)` from an adapter's test file; `open` returns a fresh,
 * empty storage each time.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConflictError, parseBucketingConfig, type AccessRecord, type Activation, type Storage, type TokenRecord } from '../../src/index';

const config = parseBucketingConfig({
  campaigns: [
    {
      id: 'c1',
      type: 'ab',
      name: 'kept unknown members survive',
      extra: { nested: [1, 2] },
      variationGroups: [
        {
          id: 'vg1',
          targeting: { targetingGroups: [{ targetings: [{ key: 'fs_all_users', operator: 'EQUALS', value: '' }] }] },
          variations: [{ id: 'a', allocation: 100, modifications: { type: 'FLAG', value: { k: 'é"\'\\ 🙂' } } }],
        },
      ],
    },
  ],
});

function activation(over: Partial<Activation> = {}): Activation {
  return {
    environmentId: 'env',
    visitorId: 'v1',
    anonymousId: null,
    campaignId: 'c1',
    variationGroupId: 'vg1',
    variationId: 'a',
    timestamp: 1000,
    ...over,
  };
}

function access(over: Partial<AccessRecord> = {}): AccessRecord {
  return {
    id: 'acc_1',
    accountId: 'acme',
    name: 'deploy-bot',
    environments: ['prod'],
    actions: ['campaigns.read', 'panic.write'],
    clientId: 'abk_ci_client1',
    secretHash: 'f'.repeat(64),
    createdAt: 1000,
    revokedAt: null,
    ...over,
  };
}

function token(over: Partial<TokenRecord> = {}): TokenRecord {
  return {
    tokenHash: 'a'.repeat(64),
    accessId: 'acc_1',
    accountId: 'acme',
    clientId: 'abk_ci_client1',
    actions: ['campaigns.read'],
    environments: [],
    issuedAt: 1000,
    expiresAt: 5000,
    ...over,
  };
}

export function runConformance(name: string, open: () => Promise<Storage>): void {
  describe(`storage conformance: ${name}`, () => {
    let storage: Storage;
    beforeEach(async () => {
      storage = await open();
    });
    afterEach(async () => {
      await storage.close();
    });

    describe('environments', () => {
      it('returns undefined for an unknown environment', async () => {
        expect(await storage.environments.get('nope')).toBeUndefined();
        expect(await storage.environments.version('nope')).toBeUndefined();
      });

      it('stores a configuration losslessly and starts at version 1', async () => {
        const rec = await storage.environments.put({ id: 'prod', accountId: 'acme', config, apiKeyHash: 'abc' }, { now: 42 });
        expect(rec).toMatchObject({ id: 'prod', accountId: 'acme', apiKeyHash: 'abc', version: 1, updatedAt: 42 });
        const read = await storage.environments.get('prod');
        expect(read?.config).toEqual(config);
        expect(await storage.environments.version('prod')).toBe(1);
      });

      it('increments the version on each write and keeps the api key hash when not given', async () => {
        await storage.environments.put({ id: 'prod', accountId: 'acme', config, apiKeyHash: 'h1' });
        const second = await storage.environments.put({ id: 'prod', accountId: 'acme', config: { ...config, panic: true } });
        expect(second.version).toBe(2);
        expect(second.apiKeyHash).toBe('h1');
        expect((await storage.environments.get('prod'))?.config.panic).toBe(true);
        const third = await storage.environments.put({ id: 'prod', accountId: 'acme', config, apiKeyHash: null });
        expect(third).toMatchObject({ version: 3, apiKeyHash: null });
      });

      it('refuses a write with a stale expected version, and accepts the current one', async () => {
        await storage.environments.put({ id: 'prod', accountId: 'acme', config });
        await expect(storage.environments.put({ id: 'prod', accountId: 'acme', config }, { expectedVersion: 0 })).rejects.toBeInstanceOf(ConflictError);
        const ok = await storage.environments.put({ id: 'prod', accountId: 'acme', config }, { expectedVersion: 1 });
        expect(ok.version).toBe(2);
        await expect(storage.environments.put({ id: 'new', accountId: 'acme', config }, { expectedVersion: 0 })).resolves.toMatchObject({ version: 1 });
      });

      it('refuses to move an environment to another account', async () => {
        await storage.environments.put({ id: 'prod', accountId: 'acme', config });
        await expect(storage.environments.put({ id: 'prod', accountId: 'other', config })).rejects.toBeInstanceOf(ConflictError);
        expect((await storage.environments.get('prod'))?.accountId).toBe('acme');
      });

      it('lists environments by account, ordered by id', async () => {
        await storage.environments.put({ id: 'b', accountId: 'acme', config });
        await storage.environments.put({ id: 'a', accountId: 'acme', config });
        await storage.environments.put({ id: 'c', accountId: 'other', config });
        expect((await storage.environments.list('acme')).map((r) => r.id)).toEqual(['a', 'b']);
        expect((await storage.environments.list()).map((r) => r.id)).toEqual(['a', 'b', 'c']);
      });

      it('deletes', async () => {
        await storage.environments.put({ id: 'prod', accountId: 'acme', config });
        expect(await storage.environments.delete('prod')).toBe(true);
        expect(await storage.environments.delete('prod')).toBe(false);
        expect(await storage.environments.get('prod')).toBeUndefined();
      });

      it('does not let a caller mutate stored state through a returned record', async () => {
        const written = structuredClone(config);
        await storage.environments.put({ id: 'prod', accountId: 'acme', config: written });
        written.campaigns[0]!.id = 'changed-after-write';
        const read = await storage.environments.get('prod');
        try {
          (read!.config.campaigns[0] as { id: string }).id = 'mutated';
        } catch {
          // frozen records throw in strict mode: that is fine too
        }
        expect((await storage.environments.get('prod'))?.config.campaigns[0]?.id).toBe('c1');
      });
    });

    describe('assignments', () => {
      it('is empty for an unknown visitor', async () => {
        expect(await storage.assignments.get('env', 'v1')).toEqual({});
      });

      it('merges saved assignments and keeps environments and visitors apart', async () => {
        await storage.assignments.save('env', 'v1', { vg1: 'a' });
        await storage.assignments.save('env', 'v1', { vg2: 'b' });
        await storage.assignments.save('env', 'v1', { vg1: 'c' });
        await storage.assignments.save('other', 'v1', { vg1: 'x' });
        await storage.assignments.save('env', 'v2', { vg1: 'y' });
        expect(await storage.assignments.get('env', 'v1')).toEqual({ vg1: 'c', vg2: 'b' });
        expect(await storage.assignments.get('other', 'v1')).toEqual({ vg1: 'x' });
        expect(await storage.assignments.get('env', 'v2')).toEqual({ vg1: 'y' });
      });

      it('handles ids with any characters', async () => {
        const id = 'v"1\',; DROP TABLE 🙂';
        await storage.assignments.save('e"nv', id, { 'vg"1': 'a\'b' });
        expect(await storage.assignments.get('e"nv', id)).toEqual({ 'vg"1': 'a\'b' });
        expect(await storage.assignments.get('e"nv', 'v"1')).toEqual({});
      });

      it('deletes a visitor', async () => {
        await storage.assignments.save('env', 'v1', { vg1: 'a' });
        await storage.assignments.delete('env', 'v1');
        expect(await storage.assignments.get('env', 'v1')).toEqual({});
      });

      it('loses nothing under concurrent saves for one visitor', async () => {
        await Promise.all(Array.from({ length: 50 }, (_, i) => storage.assignments.save('env', 'v1', { [`vg${i}`]: `x${i}` })));
        const got = await storage.assignments.get('env', 'v1');
        expect(Object.keys(got)).toHaveLength(50);
      });
    });

    describe('accesses', () => {
      it('creates, reads by id and by client id, and lists by account oldest first', async () => {
        await storage.accesses.create(access({ id: 'acc_2', clientId: 'abk_ci_client2', createdAt: 2000, environments: [] }));
        await storage.accesses.create(access());
        await storage.accesses.create(access({ id: 'acc_3', clientId: 'abk_ci_client3', accountId: 'other' }));
        expect(await storage.accesses.get('acc_1')).toEqual(access());
        expect(await storage.accesses.getByClientId('abk_ci_client2')).toEqual(access({ id: 'acc_2', clientId: 'abk_ci_client2', createdAt: 2000, environments: [] }));
        expect(await storage.accesses.get('nope')).toBeUndefined();
        expect(await storage.accesses.getByClientId('nope')).toBeUndefined();
        expect((await storage.accesses.list('acme')).map((a) => a.id)).toEqual(['acc_1', 'acc_2']);
        expect(await storage.accesses.list('nobody')).toEqual([]);
      });

      it('refuses a taken id or client id', async () => {
        await storage.accesses.create(access());
        await expect(storage.accesses.create(access({ clientId: 'other-client' }))).rejects.toBeInstanceOf(ConflictError);
        await expect(storage.accesses.create(access({ id: 'acc_9' }))).rejects.toBeInstanceOf(ConflictError);
        expect(await storage.accesses.list('acme')).toHaveLength(1);
      });

      it('revokes once, keeping the row for audit', async () => {
        await storage.accesses.create(access());
        expect(await storage.accesses.revoke('acc_1', 3000)).toBe(true);
        expect(await storage.accesses.revoke('acc_1', 4000)).toBe(false);
        expect(await storage.accesses.revoke('nope', 4000)).toBe(false);
        expect((await storage.accesses.get('acc_1'))?.revokedAt).toBe(3000);
        expect((await storage.accesses.getByClientId('abk_ci_client1'))?.revokedAt).toBe(3000);
      });
    });

    describe('tokens', () => {
      it('saves and reads by hash; refuses a duplicate hash', async () => {
        await storage.tokens.save(token());
        expect(await storage.tokens.get('a'.repeat(64))).toEqual(token());
        expect(await storage.tokens.get('b'.repeat(64))).toBeUndefined();
        await expect(storage.tokens.save(token())).rejects.toBeInstanceOf(ConflictError);
      });

      it('deletes only tokens expired before now', async () => {
        await storage.tokens.save(token({ tokenHash: '1', expiresAt: 100 }));
        await storage.tokens.save(token({ tokenHash: '2', expiresAt: 200 }));
        await storage.tokens.save(token({ tokenHash: '3', expiresAt: 300 }));
        expect(await storage.tokens.deleteExpired(200)).toBe(1);
        expect(await storage.tokens.get('1')).toBeUndefined();
        expect(await storage.tokens.get('2')).toBeDefined();
        expect(await storage.tokens.get('3')).toBeDefined();
      });
    });

    describe('activations', () => {
      it('records and lists in order, filtered by environment, visitor and time', async () => {
        await storage.activations.record([activation({ timestamp: 3000, visitorId: 'v2' }), activation({ timestamp: 1000 })]);
        await storage.activations.record([activation({ timestamp: 2000, anonymousId: 'anon' }), activation({ environmentId: 'other' })]);
        const all = await storage.activations.list({ environmentId: 'env' });
        expect(all.map((a) => a.timestamp)).toEqual([1000, 2000, 3000]);
        expect(all[1]).toEqual(activation({ timestamp: 2000, anonymousId: 'anon' }));
        expect((await storage.activations.list({ environmentId: 'env', visitorId: 'v2' })).map((a) => a.visitorId)).toEqual(['v2']);
        expect((await storage.activations.list({ environmentId: 'env', since: 2000 })).map((a) => a.timestamp)).toEqual([2000, 3000]);
        expect(await storage.activations.list({ environmentId: 'env', limit: 2 })).toHaveLength(2);
        expect(await storage.activations.list({ environmentId: 'none' })).toEqual([]);
      });

      it('keeps recording order for equal timestamps', async () => {
        await storage.activations.record([activation({ variationId: 'first' }), activation({ variationId: 'second' })]);
        await storage.activations.record([activation({ variationId: 'third' })]);
        expect((await storage.activations.list({ environmentId: 'env' })).map((a) => a.variationId)).toEqual(['first', 'second', 'third']);
      });

      it('accepts an empty list', async () => {
        await storage.activations.record([]);
        expect(await storage.activations.list({ environmentId: 'env' })).toEqual([]);
      });
    });
  });
}
