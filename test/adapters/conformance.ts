/**
 * The storage conformance suite: every adapter runs it unchanged.
 * Call `runConformance(name, open)` from an adapter's test file; `open` returns a fresh,
 * empty storage each time.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConflictError, DecisionEngine, RemoteControl, type CatalogItem, type Storage } from '../../src/index';
import { parseBucketingConfig } from '../../src/model/bucketing-config';
import type { AccessRecord } from '../../src/storage/accesses';
import type { Activation } from '../../src/storage/activations';
import type { CatalogRecord } from '../../src/storage/catalog';
import type { ConversionEvent, VariationAggregate } from '../../src/storage/events';
import type { TokenRecord } from '../../src/storage/tokens';
import { campaign } from '../helpers/configs';
import { searchAnalyticsConformance } from './search-analytics-conformance';

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

function conversion(over: Partial<ConversionEvent> = {}): ConversionEvent {
  return { environmentId: 'env', visitorId: 'v1', event: 'purchase', value: null, timestamp: 1000, ...over };
}

function byVariation(rows: VariationAggregate[]): Record<string, Omit<VariationAggregate, 'variationGroupId' | 'variationId'>> {
  const out: Record<string, Omit<VariationAggregate, 'variationGroupId' | 'variationId'>> = {};
  for (const { variationGroupId, variationId, ...sums } of rows) out[`${variationGroupId}/${variationId}`] = sums;
  return out;
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
    lastUsedAt: null,
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

function catalogRecord(identifier = 'acme', n = 1): CatalogRecord {
  return { identifier, catalogKeyHash: `c${n}`.padEnd(64, '0'), searchKeyHash: `s${n}`.padEnd(64, '0'), createdAt: 1000 };
}

function item(id: string, extra: Record<string, unknown> = {}): CatalogItem {
  return { id, is_recommendable: true, name: `Item ${id}`, absolute_link: null, img_link: null, price: 10, categories_ids: null, ...extra };
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
        await expect(storage.environments.put({ id: 'prod', accountId: 'acme', config }, { expectedVersion: 0 })).rejects.toBeInstanceOf(
          ConflictError,
        );
        const ok = await storage.environments.put({ id: 'prod', accountId: 'acme', config }, { expectedVersion: 1 });
        expect(ok.version).toBe(2);
        await expect(storage.environments.put({ id: 'new', accountId: 'acme', config }, { expectedVersion: 0 })).resolves.toMatchObject({
          version: 1,
        });
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

      it('counts its writes if it offers changes(): every put and delete changes the count, reads do not', async () => {
        const changes = storage.environments.changes?.bind(storage.environments);
        if (!changes) return;
        const counts = [changes()];
        await storage.environments.put({ id: 'prod', accountId: 'acme', config });
        counts.push(changes());
        await storage.environments.get('prod');
        await storage.environments.version('prod');
        await storage.environments.list();
        counts.push(changes());
        await storage.environments.put({ id: 'prod', accountId: 'acme', config: { ...config, panic: true } });
        counts.push(changes());
        await storage.environments.delete('prod');
        counts.push(changes());
        expect(new Set([counts[0], counts[1], counts[3], counts[4]]).size).toBe(4);
        expect(counts[2]).toBe(counts[1]);
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

    describe('remote-control writes without a version (issue #23)', () => {
      it('concurrent campaign and panic writes all succeed and lose no change; a stale expected version still conflicts', async () => {
        const engine = new DecisionEngine({ storage });
        await engine.load({ campaigns: [] }, { environment: 'prod', account: 'acme' });
        const remote = new RemoteControl({ engine });
        const ids = Array.from({ length: 30 }, (_, i) => `c${i}`);
        const puts = await Promise.allSettled(ids.map((id) => remote.putCampaign('acme', 'prod', id, campaign({ id, split: [100] }))));
        expect(puts.filter((r) => r.status === 'rejected')).toEqual([]);
        const panics = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => remote.setPanic('acme', 'prod', i % 2 === 1)));
        expect(panics.filter((r) => r.status === 'rejected')).toEqual([]);
        const stored = await remote.getConfiguration('acme', 'prod');
        expect(stored.config.campaigns.map((c) => c.id).sort()).toEqual([...ids].sort());
        expect(stored.version).toBe(1 + 30 + 20);
        // The writes ran in the order asked for: the last panic write asked for `true`.
        expect(stored.config.panic).toBe(true);
        const replaced = await Promise.allSettled(
          ids.slice(0, 10).map(() => remote.replaceConfiguration('acme', 'prod', { campaigns: [] })),
        );
        expect(replaced.filter((r) => r.status === 'rejected')).toEqual([]);
        await expect(
          remote.replaceConfiguration('acme', 'prod', { campaigns: [] }, { expectedVersion: stored.version }),
        ).rejects.toBeInstanceOf(ConflictError);
        expect((await remote.getConfiguration('acme', 'prod')).version).toBe(stored.version + 10);
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
        await storage.assignments.save('e"nv', id, { 'vg"1': "a'b" });
        expect(await storage.assignments.get('e"nv', id)).toEqual({ 'vg"1': "a'b" });
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

      it('writeDecision merges assignments and appends activations together (or with only one of them)', async () => {
        expect(storage.writeDecision).toBeTypeOf('function');
        await storage.assignments.save('env', 'v1', { vg0: 'keep' });
        const activation = (group: string, variation: string, timestamp: number) => ({
          environmentId: 'env',
          visitorId: 'v1',
          anonymousId: null,
          campaignId: `c-${group}`,
          variationGroupId: group,
          variationId: variation,
          timestamp,
        });
        await storage.writeDecision!({
          environmentId: 'env',
          visitorId: 'v1',
          assignments: { vg1: 'a', vg2: 'b' },
          activations: [activation('vg1', 'a', 10), activation('vg2', 'b', 10)],
        });
        await storage.writeDecision!({ environmentId: 'env', visitorId: 'v1', activations: [activation('vg1', 'a', 20)] });
        await storage.writeDecision!({ environmentId: 'env', visitorId: 'v1', assignments: { vg2: 'c' } });
        expect(await storage.assignments.get('env', 'v1')).toEqual({ vg0: 'keep', vg1: 'a', vg2: 'c' });
        const log = await storage.activations.list({ environmentId: 'env' });
        expect(log.map((a) => [a.variationGroupId, a.variationId, a.timestamp])).toEqual([
          ['vg1', 'a', 10],
          ['vg2', 'b', 10],
          ['vg1', 'a', 20],
        ]);
      });
    });

    describe('accesses', () => {
      it('creates, reads by id and by client id, and lists by account oldest first', async () => {
        await storage.accesses.create(access({ id: 'acc_2', clientId: 'abk_ci_client2', createdAt: 2000, environments: [] }));
        await storage.accesses.create(access());
        await storage.accesses.create(access({ id: 'acc_3', clientId: 'abk_ci_client3', accountId: 'other' }));
        expect(await storage.accesses.get('acc_1')).toEqual(access());
        expect(await storage.accesses.getByClientId('abk_ci_client2')).toEqual(
          access({ id: 'acc_2', clientId: 'abk_ci_client2', createdAt: 2000, environments: [] }),
        );
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

      it('rotates the secret hash of an active access only', async () => {
        await storage.accesses.create(access());
        await storage.accesses.create(access({ id: 'acc_2', clientId: 'abk_ci_client2' }));
        expect(await storage.accesses.rotateSecret('acc_1', 'e'.repeat(64))).toBe(true);
        expect((await storage.accesses.getByClientId('abk_ci_client1'))?.secretHash).toBe('e'.repeat(64));
        expect((await storage.accesses.get('acc_2'))?.secretHash).toBe('f'.repeat(64));
        await storage.accesses.revoke('acc_2', 3000);
        expect(await storage.accesses.rotateSecret('acc_2', 'e'.repeat(64))).toBe(false);
        expect((await storage.accesses.get('acc_2'))?.secretHash).toBe('f'.repeat(64));
        expect(await storage.accesses.rotateSecret('nope', 'e'.repeat(64))).toBe(false);
      });

      it('keeps the latest time an access was used', async () => {
        await storage.accesses.create(access());
        expect((await storage.accesses.get('acc_1'))?.lastUsedAt).toBeNull();
        await storage.accesses.touch('acc_1', 5000);
        await storage.accesses.touch('acc_1', 4000);
        await storage.accesses.touch('nope', 4000);
        expect((await storage.accesses.get('acc_1'))?.lastUsedAt).toBe(5000);
        expect((await storage.accesses.list('acme'))[0]?.lastUsedAt).toBe(5000);
      });
    });

    describe('accounts', () => {
      it('creates once, reads, lists by id up to a limit, and sets the default environment', async () => {
        await storage.accounts.create({ id: 'zeta', createdAt: 2000, defaultEnvironment: null });
        await storage.accounts.create({ id: 'Acme', createdAt: 1000, defaultEnvironment: 'prod' });
        await storage.accounts.create({ id: 'acme', createdAt: 1500, defaultEnvironment: null });
        await expect(storage.accounts.create({ id: 'acme', createdAt: 3000, defaultEnvironment: null })).rejects.toBeInstanceOf(
          ConflictError,
        );
        expect(await storage.accounts.get('Acme')).toEqual({ id: 'Acme', createdAt: 1000, defaultEnvironment: 'prod' });
        expect(await storage.accounts.get('nope')).toBeUndefined();
        expect((await storage.accounts.list(10)).map((a) => a.id)).toEqual(['Acme', 'acme', 'zeta']);
        expect((await storage.accounts.list(2)).map((a) => a.id)).toEqual(['Acme', 'acme']);
        expect(await storage.accounts.setDefaultEnvironment('acme', 'staging')).toBe(true);
        expect((await storage.accounts.get('acme'))?.defaultEnvironment).toBe('staging');
        expect(await storage.accounts.setDefaultEnvironment('acme', null)).toBe(true);
        expect((await storage.accounts.get('acme'))?.defaultEnvironment).toBeNull();
        expect(await storage.accounts.setDefaultEnvironment('nope', 'x')).toBe(false);
      });
    });

    describe('catalog settings', () => {
      it('creates, replaces and lists by identifier', async () => {
        const search = { customRanking: ['price:asc'], synonyms: { multiWay: [['tv', 'télé 🙂']] } };
        await storage.catalogSettings.put({ identifier: 'shop', syncIntervalMs: 60_000, search, updatedAt: 1000 });
        await storage.catalogSettings.put({ identifier: 'b-shop', syncIntervalMs: null, search: null, updatedAt: 1000 });
        expect(await storage.catalogSettings.get('shop')).toEqual({ identifier: 'shop', syncIntervalMs: 60_000, search, updatedAt: 1000 });
        await storage.catalogSettings.put({ identifier: 'shop', syncIntervalMs: null, search: null, updatedAt: 2000 });
        expect(await storage.catalogSettings.get('shop')).toEqual({
          identifier: 'shop',
          syncIntervalMs: null,
          search: null,
          updatedAt: 2000,
        });
        expect(await storage.catalogSettings.get('nope')).toBeUndefined();
        expect((await storage.catalogSettings.list()).map((r) => r.identifier)).toEqual(['b-shop', 'shop']);
      });
    });

    describe('audit log', () => {
      const write = (n: number) => ({
        actor: n % 2 ? 'ops' : 'cli',
        action: 'access.create',
        target: `accounts/acme/accesses/acc_${n}`,
        time: 1000 + n,
        outcome: n % 3 ? 'ok' : 'validation_error',
        detail: n % 2 ? { name: `bot ${n} é🙂`, actions: ['campaigns.read'] } : null,
      });

      it('appends with growing positions and lists newest first, a page at a time', async () => {
        const appended = [];
        for (let n = 1; n <= 7; n++) appended.push(await storage.audit.append(write(n)));
        for (let i = 1; i < appended.length; i++) expect(appended[i]!.seq).toBeGreaterThan(appended[i - 1]!.seq);
        expect(appended[0]).toEqual({ ...write(1), seq: appended[0]!.seq });
        const first = await storage.audit.list({ limit: 3 });
        expect(first.map((e) => e.target)).toEqual([
          'accounts/acme/accesses/acc_7',
          'accounts/acme/accesses/acc_6',
          'accounts/acme/accesses/acc_5',
        ]);
        expect(first[0]).toEqual(appended[6]);
        const second = await storage.audit.list({ before: first.at(-1)!.seq, limit: 3 });
        expect(second.map((e) => e.time)).toEqual([1004, 1003, 1002]);
        const last = await storage.audit.list({ before: second.at(-1)!.seq, limit: 3 });
        expect(last).toEqual([appended[0]]);
        expect(await storage.audit.list({ before: appended[0]!.seq, limit: 3 })).toEqual([]);
      });

      it('reads an empty log', async () => {
        expect(await storage.audit.list({ limit: 10 })).toEqual([]);
        expect(await storage.audit.list({ before: 5, limit: 10 })).toEqual([]);
      });
    });

    searchAnalyticsConformance(() => storage);

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

    describe('catalogs', () => {
      beforeEach(async () => {
        await storage.catalogs.createCatalog(catalogRecord());
      });

      it('creates catalogs, finds them by key hash with their role, refuses duplicates', async () => {
        await storage.catalogs.createCatalog(catalogRecord('beta', 2));
        expect(await storage.catalogs.getCatalog('acme')).toEqual(catalogRecord());
        expect(await storage.catalogs.getCatalog('nope')).toBeUndefined();
        expect(await storage.catalogs.findByKeyHash(catalogRecord('beta', 2).searchKeyHash)).toEqual({
          catalog: catalogRecord('beta', 2),
          role: 'search',
        });
        expect(await storage.catalogs.findByKeyHash(catalogRecord().catalogKeyHash)).toEqual({ catalog: catalogRecord(), role: 'catalog' });
        expect(await storage.catalogs.findByKeyHash('x')).toBeUndefined();
        expect((await storage.catalogs.listCatalogs()).map((c) => c.identifier)).toEqual(['acme', 'beta']);
        await expect(storage.catalogs.createCatalog(catalogRecord())).rejects.toBeInstanceOf(ConflictError);
        await expect(storage.catalogs.createCatalog(catalogRecord('gamma', 1))).rejects.toBeInstanceOf(ConflictError);
      });

      it('a key opens one catalog only: no hash may repeat across catalogs, in either role', async () => {
        const acme = catalogRecord();
        await expect(
          storage.catalogs.createCatalog({ ...catalogRecord('beta', 2), catalogKeyHash: acme.searchKeyHash }),
        ).rejects.toBeInstanceOf(ConflictError);
        await storage.catalogs.createCatalog(catalogRecord('beta', 2));
        await expect(
          storage.catalogs.setKeys('beta', { catalogKeyHash: acme.searchKeyHash, searchKeyHash: 'z'.repeat(64) }),
        ).rejects.toBeInstanceOf(ConflictError);
        expect((await storage.catalogs.findByKeyHash(acme.searchKeyHash))?.catalog.identifier).toBe('acme');
        expect((await storage.catalogs.getCatalog('beta'))?.catalogKeyHash).toBe(catalogRecord('beta', 2).catalogKeyHash);
      });

      it('rotates keys', async () => {
        await storage.catalogs.setKeys('acme', { catalogKeyHash: 'n'.repeat(64), searchKeyHash: 'm'.repeat(64) });
        expect(await storage.catalogs.findByKeyHash(catalogRecord().catalogKeyHash)).toBeUndefined();
        expect((await storage.catalogs.findByKeyHash('n'.repeat(64)))?.role).toBe('catalog');
      });

      it('applies a batch in order, with its field claims, and reads items back losslessly', async () => {
        const odd = item('é"\'🙂', { weird: JSON.parse('{"a.b":"x","__proto__":"p","constructor":"c"}'), list: ['a', ''] });
        await storage.catalogs.applyBatch(
          'acme',
          [
            { name: 'color', type: 'string' },
            { name: 'size', type: null },
            { name: 'weird', type: 'object<string>' },
            { name: 'list', type: 'string[]' },
          ],
          [
            { op: 'put', item: item('a', { color: 'red', size: '' }) },
            { op: 'put', item: item('b') },
            { op: 'delete', id: 'b' },
            { op: 'put', item: odd },
            { op: 'delete', id: 'never-existed' },
          ],
          5000,
        );
        expect(await storage.catalogs.getItem('acme', 'a')).toEqual(item('a', { color: 'red', size: '' }));
        expect(await storage.catalogs.getItem('acme', 'b')).toBeUndefined();
        const back = await storage.catalogs.getItem('acme', odd.id);
        expect(back).toEqual(odd);
        expect(Object.keys(back!.weird as object)).toEqual(['a.b', '__proto__', 'constructor']);
        expect(await storage.catalogs.countItems('acme')).toBe(2);
        expect(await storage.catalogs.schema('acme')).toEqual([
          { name: 'color', type: 'string', createdAt: 5000 },
          { name: 'list', type: 'string[]', createdAt: 5000 },
          { name: 'size', type: null, createdAt: 5000 },
          { name: 'weird', type: 'object<string>', createdAt: 5000 },
        ]);
      });

      it('types an untyped field, and rejects a conflicting claim atomically', async () => {
        await storage.catalogs.applyBatch('acme', [{ name: 'size', type: null }], [{ op: 'put', item: item('a', { size: null }) }], 1);
        await storage.catalogs.applyBatch('acme', [{ name: 'size', type: 'number' }], [{ op: 'put', item: item('b', { size: 3 }) }], 2);
        const error = await storage.catalogs
          .applyBatch(
            'acme',
            [
              { name: 'fresh', type: 'string' },
              { name: 'size', type: 'string' },
            ],
            [
              { op: 'put', item: item('c', { size: 'XL', fresh: 'y' }) },
              { op: 'delete', id: 'a' },
            ],
            3,
          )
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ConflictError);
        expect((error as ConflictError).code).toBe('field_type_conflict');
        // Nothing of the refused batch was applied: no item, no new field, no delete.
        expect(await storage.catalogs.getItem('acme', 'c')).toBeUndefined();
        expect(await storage.catalogs.getItem('acme', 'a')).toBeDefined();
        expect((await storage.catalogs.schema('acme')).map((f) => [f.name, f.type])).toEqual([['size', 'number']]);
      });

      it('exactly one of two concurrent conflicting claims wins', async () => {
        const results = await Promise.allSettled([
          storage.catalogs.applyBatch('acme', [{ name: 'size', type: 'string' }], [{ op: 'put', item: item('a', { size: 'XL' }) }], 1),
          storage.catalogs.applyBatch('acme', [{ name: 'size', type: 'number' }], [{ op: 'put', item: item('b', { size: 42 }) }], 1),
        ]);
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        const type = (await storage.catalogs.schema('acme'))[0]!.type;
        expect(await storage.catalogs.countItems('acme')).toBe(1);
        expect(await storage.catalogs.getItem('acme', type === 'string' ? 'a' : 'b')).toBeDefined();
      });

      it('deletes all items but keeps the schema', async () => {
        await storage.catalogs.applyBatch(
          'acme',
          [{ name: 'color', type: 'string' }],
          [
            { op: 'put', item: item('a', { color: 'red' }) },
            { op: 'put', item: item('b') },
          ],
          1,
        );
        expect(await storage.catalogs.deleteAllItems('acme')).toBe(2);
        expect(await storage.catalogs.countItems('acme')).toBe(0);
        expect((await storage.catalogs.schema('acme')).map((f) => f.name)).toEqual(['color']);
      });

      it('deletes a field from the schema and from every item', async () => {
        await storage.catalogs.applyBatch(
          'acme',
          [{ name: 'color', type: 'string' }],
          [
            { op: 'put', item: item('a', { color: 'red' }) },
            { op: 'put', item: item('b') },
          ],
          1,
        );
        expect(await storage.catalogs.deleteField('acme', 'color')).toBe(true);
        expect(await storage.catalogs.deleteField('acme', 'color')).toBe(false);
        expect(await storage.catalogs.getItem('acme', 'a')).toEqual(item('a'));
        expect(await storage.catalogs.schema('acme')).toEqual([]);
        await storage.catalogs.applyBatch('acme', [{ name: 'color', type: 'number' }], [{ op: 'put', item: item('c', { color: 3 }) }], 2);
        expect((await storage.catalogs.schema('acme'))[0]!.type).toBe('number');
      });

      it('publishes the accepted items as the next visible version; later writes stay invisible', async () => {
        expect(await storage.catalogs.visibleVersion('acme')).toEqual({ version: 0, syncedAt: null });
        expect((await storage.catalogs.visibleItems('acme')).items).toEqual([]);
        await storage.catalogs.applyBatch(
          'acme',
          [],
          [
            { op: 'put', item: item('b') },
            { op: 'put', item: item('a') },
          ],
          1,
        );
        expect(await storage.catalogs.publish('acme', 7000)).toEqual({ version: 1, syncedAt: 7000, count: 2 });
        await storage.catalogs.applyBatch(
          'acme',
          [],
          [
            { op: 'put', item: item('c') },
            { op: 'put', item: item('a', { price: 99 }) },
          ],
          2,
        );
        const visible = await storage.catalogs.visibleItems('acme');
        expect(visible.version).toBe(1);
        expect(visible.syncedAt).toBe(7000);
        expect(visible.items).toEqual([item('a'), item('b')]);
        await storage.catalogs.publish('acme', 8000);
        expect((await storage.catalogs.visibleItems('acme')).items.map((i) => [i.id, i.price])).toEqual([
          ['a', 99],
          ['b', 10],
          ['c', 10],
        ]);
        expect(await storage.catalogs.visibleVersion('acme')).toEqual({ version: 2, syncedAt: 8000 });
        // Nothing written since: the publication is kept, not repeated.
        expect(await storage.catalogs.publish('acme', 9000)).toEqual({ version: 2, syncedAt: 8000, count: 3 });
        await storage.catalogs.deleteField('acme', 'nope');
        expect((await storage.catalogs.publish('acme', 9500)).version).toBe(2);
        await storage.catalogs.deleteAllItems('acme');
        expect(await storage.catalogs.publish('acme', 10_000)).toEqual({ version: 3, syncedAt: 10_000, count: 0 });
      });

      it('keeps catalogs apart', async () => {
        await storage.catalogs.createCatalog(catalogRecord('beta', 2));
        await storage.catalogs.applyBatch('beta', [{ name: 'color', type: 'number' }], [{ op: 'put', item: item('a', { color: 1 }) }], 1);
        await storage.catalogs.applyBatch('acme', [{ name: 'color', type: 'string' }], [{ op: 'put', item: item('a', { color: 'x' }) }], 1);
        expect((await storage.catalogs.getItem('beta', 'a'))?.color).toBe(1);
        expect(await storage.catalogs.countItems('acme')).toBe(1);
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

    describe('events', () => {
      it('records and lists in order, filtered by environment, visitor, event and time', async () => {
        await storage.events.record([conversion({ timestamp: 3000, visitorId: 'v2', value: 19.99 }), conversion({ timestamp: 1000 })]);
        await storage.events.record([
          conversion({ timestamp: 2000, event: 'signup', value: -0.5 }),
          conversion({ environmentId: 'other' }),
        ]);
        const all = await storage.events.list({ environmentId: 'env' });
        expect(all.map((e) => e.timestamp)).toEqual([1000, 2000, 3000]);
        expect(all[1]).toEqual(conversion({ timestamp: 2000, event: 'signup', value: -0.5 }));
        expect(all[2]!.value).toBe(19.99);
        expect(all[0]!.value).toBeNull();
        expect((await storage.events.list({ environmentId: 'env', visitorId: 'v2' })).map((e) => e.visitorId)).toEqual(['v2']);
        expect((await storage.events.list({ environmentId: 'env', event: 'signup' })).map((e) => e.event)).toEqual(['signup']);
        expect((await storage.events.list({ environmentId: 'env', since: 2000, until: 3000 })).map((e) => e.timestamp)).toEqual([2000]);
        expect(await storage.events.list({ environmentId: 'env', limit: 2 })).toHaveLength(2);
        expect(await storage.events.list({ environmentId: 'none' })).toEqual([]);
      });

      it('keeps recording order for equal timestamps and accepts an empty list', async () => {
        await storage.events.record([]);
        await storage.events.record([conversion({ event: 'first' }), conversion({ event: 'second' })]);
        await storage.events.record([conversion({ event: 'third' })]);
        expect((await storage.events.list({ environmentId: 'env' })).map((e) => e.event)).toEqual(['first', 'second', 'third']);
      });

      describe('aggregate', () => {
        beforeEach(async () => {
          await storage.activations.record([
            activation({ visitorId: 'v1', variationId: 'a', timestamp: 1000 }),
            activation({ visitorId: 'v1', campaignId: 'c2', variationGroupId: 'vg2', variationId: 'z', timestamp: 900 }),
            activation({ visitorId: 'v2', variationId: 'a', timestamp: 3000 }),
            activation({ visitorId: 'v2', variationId: 'a', timestamp: 1000 }),
            activation({ visitorId: 'v3', variationId: 'b', timestamp: 2000 }),
            activation({ visitorId: 'v4', variationId: 'b', timestamp: 1000 }),
            activation({ visitorId: 'v4', variationId: 'a', timestamp: 1200 }),
            activation({ visitorId: 'v5', variationId: 'b', timestamp: 1000 }),
            activation({ visitorId: 'v6', environmentId: 'other', variationId: 'b', timestamp: 1000 }),
          ]);
          await storage.events.record([
            conversion({ visitorId: 'v1', value: 100, timestamp: 500 }), // before its exposure
            conversion({ visitorId: 'v1', value: 10, timestamp: 1500 }),
            conversion({ visitorId: 'v1', value: 5, timestamp: 2000 }),
            conversion({ visitorId: 'v2', value: null, timestamp: 2000 }),
            conversion({ visitorId: 'v3', event: 'signup', value: 1, timestamp: 2500 }), // another metric
            conversion({ visitorId: 'v3', environmentId: 'other', value: 1, timestamp: 2500 }), // another environment
            conversion({ visitorId: 'v4', value: 3, timestamp: 2000 }), // exposed to two variations
            conversion({ visitorId: 'v5', value: 7, timestamp: 1000 }), // at the exposure: counts
            conversion({ visitorId: 'v5', value: 9, timestamp: 5000 }),
            conversion({ visitorId: 'v9', value: 50, timestamp: 5000 }), // never exposed
          ]);
        });

        it('counts unique exposed visitors, conversions after the first exposure and value sums per variation', async () => {
          const rows = byVariation(await storage.events.aggregate({ environmentId: 'env', campaignId: 'c1', event: 'purchase' }));
          expect(rows).toEqual({
            'vg1/a': { exposed: 2, converted: 2, valued: 2, valueSum: 15, valueSumSquares: 225 },
            'vg1/b': { exposed: 2, converted: 1, valued: 2, valueSum: 16, valueSumSquares: 256 },
            'null/null': { exposed: 1, converted: 0, valued: 0, valueSum: 0, valueSumSquares: 0 },
          });
        });

        it('restricts exposures to [since, until) and events to before until', async () => {
          const untilRows = byVariation(
            await storage.events.aggregate({ environmentId: 'env', campaignId: 'c1', event: 'purchase', until: 4000 }),
          );
          expect(untilRows['vg1/b']).toEqual({ exposed: 2, converted: 1, valued: 1, valueSum: 7, valueSumSquares: 49 });
          const sinceRows = byVariation(
            await storage.events.aggregate({ environmentId: 'env', campaignId: 'c1', event: 'purchase', since: 1100 }),
          );
          expect(sinceRows).toEqual({
            'vg1/a': { exposed: 2, converted: 1, valued: 1, valueSum: 3, valueSumSquares: 9 }, // v2 after its event, v4 now only in a
            'vg1/b': { exposed: 1, converted: 0, valued: 0, valueSum: 0, valueSumSquares: 0 },
          });
        });

        it('is empty for a campaign nobody was exposed to', async () => {
          expect(await storage.events.aggregate({ environmentId: 'env', campaignId: 'nope', event: 'purchase' })).toEqual([]);
          expect(await storage.events.aggregate({ environmentId: 'none', campaignId: 'c1', event: 'purchase' })).toEqual([]);
        });
      });
    });
  });
}
