import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMIN_COMMANDS } from '../../server/commands/admin';
import { openStorage } from '../../server/storage';
import { composeAbkit } from '../../src/abkit';

const PEPPER = 'pepper-of-the-cli-test';

/** Runs `abkit <name> <args>` against a storage; returns the exit code and what it printed. */
async function abkit(name: string, args: string[], env: Record<string, string> = {}) {
  const command = ADMIN_COMMANDS.find((c) => c.name === name);
  if (!command) throw new Error(`no command ${name}`);
  const out: string[] = [];
  const err: string[] = [];
  const code = await command.run({ args, env, out: (l) => out.push(l), err: (l) => err.push(l) });
  return {
    code,
    out,
    err,
    field: (label: string) =>
      out
        .find((l) => l.startsWith(`${label}:`))
        ?.slice(label.length + 1)
        .trim(),
  };
}

function sqlite() {
  return `sqlite:${join(mkdtempSync(join(tmpdir(), 'abkit-cli-')), 'abkit.db')}`;
}

describe('abkit admin subcommands', () => {
  it('every command has a name, a summary and a usage naming itself', () => {
    expect(ADMIN_COMMANDS.map((c) => c.name)).toEqual([
      'access create',
      'access list',
      'access revoke',
      'access rotate',
      'account create',
      'env create',
      'catalog create',
      'admin-key',
    ]);
    for (const c of ADMIN_COMMANDS) {
      expect(c.summary.length).toBeGreaterThan(10);
      expect(c.usage).toContain(`usage: abkit ${c.name}`);
    }
  });

  it('account, env, access create|list|rotate|revoke against SQLite: secrets once on stdout, usable by a server with the same pepper', async () => {
    const storage = sqlite();
    const env = { ABKIT_STORAGE: storage, ABKIT_PEPPER: PEPPER };
    expect((await abkit('account create', ['acme'], env)).code).toBe(0);
    const prod = await abkit('env create', ['acme', 'prod', '--default', '--api-key'], env);
    expect(prod.code).toBe(0);
    expect(prod.field('api key')).toMatch(/^abk_ek_/);
    const created = await abkit(
      'access create',
      ['acme', '--name', 'deploy bot', '--actions', 'campaigns.read,panic.write', '--environments=prod'],
      env,
    );
    expect(created.code).toBe(0);
    expect(created.err.join('\n')).toMatch(/shown this once/);
    const [id, clientId, secret] = [created.field('id')!, created.field('client id')!, created.field('client secret')!];
    expect(secret).toMatch(/^abk_cs_/);

    const listed = await abkit('access list', ['acme'], env);
    expect(listed.out).toHaveLength(1);
    expect(listed.out[0]).toMatch(
      new RegExp(`^${id}  active  "deploy bot"  environments=prod  actions=campaigns.read,panic.write  client=…`),
    );
    expect(listed.out.join('\n')).not.toContain(secret);
    expect(listed.out.join('\n')).not.toContain(clientId);

    const rotated = await abkit('access rotate', ['acme', id], env);
    const newSecret = rotated.field('client secret')!;
    expect(newSecret).not.toBe(secret);

    // A server over the same storage and pepper: the new secret gets a token, the old one not.
    const server = composeAbkit({ storage: await openStorage(storage), accesses: { pepper: PEPPER }, decision: { pepper: PEPPER } });
    try {
      await expect(server.tokens.issue({ accountId: 'acme', clientId, clientSecret: secret })).rejects.toThrow();
      await server.tokens.issue({ accountId: 'acme', clientId, clientSecret: newSecret });
      await server.engine.checkApiKey('prod', prod.field('api key')!);
      expect((await abkit('access revoke', ['acme', id], env)).field('status')).toBe('revoked');
      await expect(server.tokens.issue({ accountId: 'acme', clientId, clientSecret: newSecret })).rejects.toThrow();
      const audit = (await server.admin.audit()).entries;
      expect(audit.map((e) => `${e.actor} ${e.action} ${e.outcome}`)).toEqual([
        'cli access.revoke ok',
        'cli access.rotate ok',
        'cli access.create ok',
        'cli environment.create ok',
        'cli account.create ok',
      ]);
      expect(JSON.stringify(audit)).not.toContain(newSecret);
    } finally {
      await server.close();
    }
  });

  it('catalog create prints both keys; admin-key prints a fresh key', async () => {
    const env = { ABKIT_STORAGE: sqlite() };
    const created = await abkit('catalog create', ['shop', '--sync-interval-ms', '60000'], env);
    expect(created.code).toBe(0);
    expect(created.field('catalog key')).toMatch(/^abk_ck_/);
    expect(created.field('search key')).toMatch(/^abk_sk_/);
    const key = await abkit('admin-key', []);
    expect(key.code).toBe(0);
    expect(key.out).toEqual([expect.stringMatching(/^abk_ak_[A-Za-z0-9_-]{43}$/)]);
    expect((await abkit('admin-key', [])).out[0]).not.toBe(key.out[0]);
    expect((await abkit('admin-key', ['extra'])).code).toBe(2);
  });

  it('a refused change exits 1 naming the field; a usage mistake exits 2', async () => {
    const env = { ABKIT_STORAGE: sqlite() };
    const missing = await abkit('env create', ['nobody', 'prod'], env);
    expect(missing.code).toBe(1);
    expect(missing.err[0]).toMatch(/account "nobody" does not exist/);
    await abkit('account create', ['acme'], env);
    const bad = await abkit('access create', ['acme', '--name', 'x', '--actions', 'campaigns.fly'], env);
    expect(bad.code).toBe(1);
    expect(bad.err.join('\n')).toMatch(/actions\[0\]: unknown action "campaigns.fly"/);
    expect(bad.out).toEqual([]);
    expect((await abkit('access create', ['acme', '--actions', 'campaigns.read'], env)).err[0]).toMatch(/--name is required/);
    expect((await abkit('access list', [], env)).code).toBe(2);
    expect((await abkit('access list', ['acme', '--color'], env)).err[0]).toMatch(/unknown option --color/);
    expect((await abkit('account create', ['x', '--pepper', 'short'], env)).code).toBe(2);
    expect((await abkit('account create', ['x'], { ABKIT_STORAGE: 'mysql://nope' })).err[0]).toMatch(/ABKIT_STORAGE must be memory/);
  });

  it('warns that memory storage keeps nothing', async () => {
    const run = await abkit('account create', ['acme'], { ABKIT_STORAGE: 'memory' });
    expect(run.code).toBe(0);
    expect(run.err[0]).toMatch(/storage is memory: nothing is kept/);
  });
});
