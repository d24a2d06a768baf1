import { describe, expect, it } from 'vitest';
import { ADMIN_KEY_PREFIX, AdminKeys, MAX_ADMIN_KEYS, newAdminKey } from '../../src/access/admin-keys';

describe('AdminKeys', () => {
  it('names the key presented, and nothing for another, a prefix or a longer one', async () => {
    const [a, b] = [newAdminKey(), newAdminKey()];
    const keys = new AdminKeys([
      { name: 'ops', key: a },
      { name: 'ci.bot@x', key: b },
    ]);
    expect(await keys.actorOf(a)).toBe('ops');
    expect(await keys.actorOf(b)).toBe('ci.bot@x');
    for (const wrong of [a.slice(0, -1), `${a}x`, '', 'x'.repeat(2000), 42 as unknown as string])
      expect(await keys.actorOf(wrong)).toBeUndefined();
  });

  it('makes keys of 256 random bits with their prefix', () => {
    const key = newAdminKey();
    expect(key.startsWith(ADMIN_KEY_PREFIX)).toBe(true);
    expect(key).toMatch(/^abk_ak_[A-Za-z0-9_-]{43}$/);
    expect(newAdminKey()).not.toBe(key);
  });

  it('refuses a bad list, naming the entry and never showing the key', () => {
    const key = 's'.repeat(31);
    const error = (() => {
      try {
        new AdminKeys([{ name: 'ops', key }]);
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toMatch(/keys\[0\]\.key \(ops\) must be at least 32/);
    expect(error?.message).not.toContain(key);
    expect(() => new AdminKeys([])).toThrow(/1 to 32/);
    expect(() => new AdminKeys(Array.from({ length: MAX_ADMIN_KEYS + 1 }, (_, i) => ({ name: `k${i}`, key: newAdminKey() })))).toThrow(
      /1 to 32/,
    );
    expect(() => new AdminKeys([{ name: 'a b', key: newAdminKey() }])).toThrow(/keys\[0\]\.name/);
    expect(
      () =>
        new AdminKeys([
          { name: 'a', key: newAdminKey() },
          { name: 'a', key: newAdminKey() },
        ]),
    ).toThrow(/given twice/);
  });
});
