import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../server/commands/index';
import { runCli } from '../../server/dispatch';
import { validateBucketingFile, validateFile } from '../../server/validate';

const dir = mkdtempSync(join(tmpdir(), 'abkit-validate-'));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

describe('abkit validate', () => {
  it('accepts a valid file', async () => {
    const ok = file(
      'ok.json',
      JSON.stringify({
        campaigns: [
          {
            id: 'c',
            type: 'ab',
            variationGroups: [
              {
                id: 'g',
                targeting: { targetingGroups: [{ targetings: [{ key: 'fs_all_users', operator: 'EQUALS', value: '' }] }] },
                variations: [{ id: 'v', allocation: 100, modifications: { type: 'FLAG', value: {} } }],
              },
            ],
          },
        ],
      }),
    );
    expect(await validateBucketingFile(ok)).toEqual([]);
  });

  it('lists every problem with its JSON path, not only the first', async () => {
    const bad = file(
      'bad.json',
      JSON.stringify({
        campaigns: [
          {
            id: 'c1',
            type: 'ab',
            variationGroups: [
              {
                id: 'g',
                targeting: { targetingGroups: [{ targetings: [{ key: 'plan', operator: 'LIKE', value: 'x' }] }] },
                variations: [{ id: 'v', allocation: 100, modifications: { type: 'FLAG', value: {} } }],
              },
            ],
          },
          {
            id: 5,
            type: 'ab',
            variationGroups: [
              {
                id: 'g2',
                targeting: { targetingGroups: [] },
                variations: [{ id: 'v2', allocation: 'half', modifications: { type: 'FLAG', value: {} } }],
              },
            ],
          },
        ],
      }),
    );
    const problems = await validateBucketingFile(bad);
    const paths = problems.map((p) => p.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'campaigns[0].variationGroups[0].targeting.targetingGroups[0].targetings[0].operator',
        'campaigns[1].id',
        'campaigns[1].variationGroups[0].variations[0].allocation',
      ]),
    );
    expect(problems.length).toBeGreaterThanOrEqual(3);
    for (const p of problems) expect(p.message).not.toBe('');
  });

  it('names unreadable files and invalid JSON', async () => {
    expect(await validateBucketingFile(join(dir, 'missing.json'))).toEqual([
      { path: '(file)', message: expect.stringContaining('ENOENT') },
    ]);
    expect(await validateBucketingFile(file('broken.json', '{"campaigns": ['))).toEqual([
      { path: '(file)', message: expect.stringMatching(/^not valid JSON/) },
    ]);
  });
});

const campaigns = (id: unknown) => ({
  campaigns: [
    {
      id,
      type: 'ab',
      variationGroups: [
        {
          id: 'g',
          targeting: { targetingGroups: [{ targetings: [{ key: 'fs_all_users', operator: 'EQUALS', value: '' }] }] },
          variations: [{ id: 'v', allocation: 100, modifications: { type: 'FLAG', value: {} } }],
        },
      ],
    },
  ],
});

describe('abkit validate on bootstrap files', () => {
  it('tells a bootstrap file (accounts, accesses, catalogs) from a bucketing file (campaigns), and checks it as abkit serve would', async () => {
    file('prod.json', JSON.stringify(campaigns('c')));
    const ok = file(
      'bootstrap-ok.json',
      JSON.stringify({ accounts: [{ id: 'acme', environments: [{ id: 'prod', bucketingFile: 'prod.json' }] }] }),
    );
    expect(await validateFile(ok)).toEqual({ kind: 'bootstrap', problems: [] });
    expect(await validateFile(file('campaigns.json', JSON.stringify(campaigns('c'))))).toEqual({ kind: 'bucketing', problems: [] });
    expect(await validateFile(file('catalogs-only.json', JSON.stringify({ catalogs: [] })))).toEqual({ kind: 'bootstrap', problems: [] });
  });

  it('prints every problem with its JSON path: unknown keys, the inline configurations and the files named (relative to it)', async () => {
    file('broken-env.json', JSON.stringify(campaigns(7)));
    const bad = file(
      'bootstrap-bad.json',
      JSON.stringify({
        accounts: [
          {
            id: 'acme',
            environments: [
              { id: 'prod', bucketing: campaigns(5), apiKey: 'short' },
              { id: 'staging', bucketingFile: 'broken-env.json' },
              { id: 'qa', bucketingFile: '../outside.json' },
            ],
          },
        ],
        acesses: [],
      }),
    );
    const { kind, problems } = await validateFile(bad);
    expect(kind).toBe('bootstrap');
    // The schema's problems stop the deeper checks of files, but inline configurations are still read.
    expect(problems).toEqual([
      { path: 'accounts[0].environments[0].apiKey', message: 'must be at least 16 characters' },
      { path: 'acesses', message: 'unknown key "acesses" (did you mean "accesses"?)' },
      { path: 'accounts[0].environments[0].bucketing.campaigns[0].id', message: expect.any(String) },
    ]);
    const fixed = file(
      'bootstrap-files.json',
      JSON.stringify({
        accounts: [
          {
            id: 'acme',
            environments: [
              { id: 'staging', bucketingFile: 'broken-env.json' },
              { id: 'qa', bucketingFile: '../outside.json' },
            ],
          },
        ],
      }),
    );
    expect((await validateFile(fixed)).problems).toEqual([
      { path: 'accounts[0].environments[0].bucketingFile (broken-env.json).campaigns[0].id', message: expect.any(String) },
      { path: 'accounts[0].environments[1].bucketingFile', message: 'outside the bootstrap folder' },
    ]);
    expect((await validateFile(fixed, { allowAbsolutePaths: true })).problems[1]).toEqual({
      path: 'accounts[0].environments[1].bucketingFile',
      message: expect.stringContaining('ENOENT'),
    });
  });

  it('a file without campaigns is checked as a bootstrap file, whose schema names what it does not know', async () => {
    expect(await validateFile(file('other.json', '{"hello": 1}'))).toEqual({
      kind: 'bootstrap',
      problems: [{ path: 'hello', message: 'unknown key "hello"; known: $schema, accounts, accesses, catalogs' }],
    });
    expect((await validateFile(file('array.json', '[]'))).problems).toEqual([
      { path: '(root)', message: expect.stringMatching(/expected object/) },
    ]);
    expect((await validateFile(file('campaign.json', '{"campaign": []}'))).kind).toBe('bucketing');
  });

  it('the command prints each file and its problems on stdout and exits 1 when one has a problem', async () => {
    const good = file('good-bootstrap.json', JSON.stringify({ accesses: [] }));
    const typo = file('typo-bootstrap.json', JSON.stringify({ acounts: [] }));
    const out: string[] = [];
    const code = await runCli(['validate', good, typo], { env: {}, out: (l) => out.push(l), err: (l) => out.push(`err: ${l}`) }, COMMANDS);
    expect(code).toBe(1);
    expect(out).toEqual([
      `${good}: valid (bootstrap file)`,
      `${typo} (bootstrap file): 1 problem`,
      '  acounts: unknown key "acounts" (did you mean "accounts"?)',
    ]);
    expect(await runCli(['validate', good], { env: {}, out: () => undefined, err: () => undefined }, COMMANDS)).toBe(0);
  });
});
