import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateBucketingFile } from '../../server/validate';

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
