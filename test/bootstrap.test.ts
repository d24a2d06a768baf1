import { describe, expect, it } from 'vitest';
import { applyBootstrap, DecisionEngine, ValidationError } from '../src/index';
import { config } from './helpers/configs';

const file = {
  accounts: [
    {
      id: 'acme',
      environments: [
        { id: 'prod', default: true, apiKey: 'k', bucketing: config([{ id: 'c1', split: [100] }]) },
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
    const engine = new DecisionEngine();
    const report = await applyBootstrap(file, { engine, readJsonFile });
    expect(report).toEqual({ defaultEnvironment: 'prod', written: ['prod', 'staging'], unchanged: [] });
    expect((await engine.storage.environments.get('staging'))?.config.campaigns[0]?.id).toBe('s1');
    await expect(engine.checkApiKey('prod', null)).rejects.toThrow(/x-api-key/);
    await engine.checkApiKey('prod', 'k');
  });

  it('is idempotent: a second run writes nothing', async () => {
    const engine = new DecisionEngine();
    await applyBootstrap(file, { engine, readJsonFile });
    const again = await applyBootstrap(file, { engine, readJsonFile });
    expect(again.written).toEqual([]);
    expect(again.unchanged).toEqual(['prod', 'staging']);
    expect(await engine.storage.environments.version('prod')).toBe(1);
  });

  it('rejects a bad file with the path inside the bootstrap file', async () => {
    const bad = structuredClone(file) as any;
    bad.accounts[0].environments[0].bucketing.campaigns[0].variationGroups[0].variations[0].allocation = 101;
    const error = (await applyBootstrap(bad, { engine: new DecisionEngine(), readJsonFile }).catch((e) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.details[0]!.path).toBe('accounts[0].environments[0].bucketing.campaigns[0].variationGroups[0].variations[0].allocation');
  });

  it('rejects two default environments and an environment with both bucketing and bucketingFile', async () => {
    const two = structuredClone(file) as any;
    two.accounts[0].environments[1].default = true;
    await expect(applyBootstrap(two, { engine: new DecisionEngine(), readJsonFile })).rejects.toThrow(/several default environments/);
    const both = structuredClone(file) as any;
    both.accounts[0].environments[1].bucketing = { campaigns: [] };
    await expect(applyBootstrap(both, { engine: new DecisionEngine(), readJsonFile })).rejects.toThrow(/exactly one of bucketing and bucketingFile/);
  });
});
