/**
 * The `abkit` command line: dispatch, help, version and usage errors, through runCli with the
 * output captured, and through the built dist/cli.js where the process matters (exit codes,
 * the package version).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Command } from '../../server/commands/command';
import { COMMANDS } from '../../server/commands/index';
import { parseServeConfig } from '../../server/config';
import { runCli } from '../../server/dispatch';
import { serve } from '../../server/serve';
import { describeIf, need } from '../helpers/skip';

const root = join(__dirname, '../..');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

/** Runs `abkit <argv>` in-process; resolves to the exit code and what it wrote. */
async function abkit(argv: string[], commands: readonly Command[] = COMMANDS) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { env: {}, out: (l) => out.push(l), err: (l) => err.push(l) }, commands);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A command that records the arguments it was given. */
function fake(name: string, calls: string[][]): Command {
  return {
    name,
    summary: `the ${name} summary`,
    usage: `usage: abkit ${name} <x>`,
    run: async ({ args }) => (calls.push([name, ...args]), 0),
  };
}

describe('abkit --help and --version', () => {
  it('--help lists every command with its summary, on stdout, exit 0', async () => {
    const { code, out, err } = await abkit(['--help']);
    expect(code).toBe(0);
    expect(err).toBe('');
    for (const command of COMMANDS)
      expect(out).toMatch(new RegExp(`^  ${command.name} +${command.summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    expect((await abkit(['-h'])).out).toBe(out);
    expect((await abkit(['help'])).out).toBe(out);
  });

  it('no command prints the same help on stderr with exit 2', async () => {
    const { code, out, err } = await abkit([]);
    expect([code, out]).toEqual([2, '']);
    expect(err).toBe((await abkit(['--help'])).out);
  });

  it("--version prints the package's version", async () => {
    expect(await abkit(['--version'])).toEqual({ code: 0, out: version, err: '' });
  });

  it('<command> --help prints its usage, whatever else is on the line, and runs nothing', async () => {
    for (const command of COMMANDS) {
      const words = command.name.split(' ');
      expect(await abkit([...words, '--help'])).toEqual({ code: 0, out: command.usage, err: '' });
      expect((await abkit([...words, 'x.json', '-h'])).out).toBe(command.usage);
    }
    expect((await abkit(['serve', '--help'])).out).toContain('--storage');
    expect((await abkit(['serve', '--help'])).out).toContain('ABKIT_CORS_ORIGINS');
  });
});

describe('abkit usage errors: exit 2, one line naming the culprit and pointing at --help', () => {
  it('an unknown command', async () => {
    expect(await abkit(['serv'])).toEqual({ code: 2, out: '', err: 'abkit: unknown command "serv" (see abkit --help)' });
  });

  it('an unknown flag before the command, and after it', async () => {
    expect(await abkit(['--verbose'])).toEqual({ code: 2, out: '', err: 'abkit: unknown flag --verbose (see abkit --help)' });
    const serve = await abkit(['serve', '--prot', '8080']);
    expect(serve.code).toBe(2);
    expect(serve.err.split('\n')).toHaveLength(1);
    expect(serve.err).toMatch(/^abkit serve: unknown flag --prot; .*\(see abkit serve --help\)$/);
    expect(await abkit(['validate', '--strict', 'x.json'])).toEqual({
      code: 2,
      out: '',
      err: 'abkit validate: unknown flag --strict (see abkit validate --help)',
    });
  });

  it('a bad value or a missing argument', async () => {
    expect((await abkit(['serve', '--port', 'eighty'])).err).toBe(
      'abkit serve: PORT must be an integer of at least 0, got "eighty" (see abkit serve --help)',
    );
    expect(await abkit(['validate'])).toEqual({
      code: 2,
      out: '',
      err: 'abkit validate: needs at least one file (see abkit validate --help)',
    });
  });
});

describe('commands of two words', () => {
  const calls: string[][] = [];
  const commands = [fake('access', calls), fake('access create', calls), fake('access list', calls), fake('serve', calls)];

  it('dispatch on the longest matching name and pass the rest as arguments', async () => {
    expect((await abkit(['access', 'create', '--name', 'ci'], commands)).code).toBe(0);
    expect((await abkit(['access', 'list'], commands)).code).toBe(0);
    expect((await abkit(['access', 'other'], commands)).code).toBe(0);
    expect(calls).toEqual([['access create', '--name', 'ci'], ['access list'], ['access', 'other']]);
  });

  it('list every command in --help, and give each its own --help', async () => {
    const { out } = await abkit(['--help'], commands);
    expect(out).toMatch(/^ {2}access create {2,}the access create summary$/m);
    expect((await abkit(['access', 'create', '--help'], commands)).out).toBe('usage: abkit access create <x>');
    expect((await abkit(['access', '--help'], commands)).out).toBe('usage: abkit access <x>');
  });

  it('name the commands of a group when its second word is unknown', async () => {
    const group = [fake('access create', calls), fake('access list', calls)];
    expect(await abkit(['access', 'delete'], group)).toEqual({
      code: 2,
      out: '',
      err: 'abkit: unknown command "access delete"; access has: access create, access list (see abkit --help)',
    });
    expect((await abkit(['access'], group)).err).toBe(
      'abkit: unknown command "access"; access has: access create, access list (see abkit --help)',
    );
  });
});

describe('a command that fails', () => {
  it('a ValidationError or a start failure is one line, exit 1; anything else keeps its stack', async () => {
    const failing = (error: Error): Command => ({
      name: 'fail',
      summary: 's',
      usage: 'u',
      run: async () => {
        throw error;
      },
    });
    const validation = Object.assign(new Error('invalid bootstrap file: accounts[0].id: must be a string'), { name: 'ValidationError' });
    expect(await abkit(['fail'], [failing(validation)])).toEqual({ code: 1, out: '', err: `abkit: ${validation.message}` });
    const bug = await abkit(['fail'], [failing(new TypeError('x is undefined'))]);
    expect(bug.code).toBe(1);
    expect(bug.err).toMatch(/^TypeError: x is undefined\n\s+at /);
  });
});

describe('abkit serve without a bootstrap file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'abkit-fresh-'));
  const start = async (env: Record<string, string>) => {
    const banner: string[] = [];
    const running = await serve(parseServeConfig([], { PORT: '0', ...env }), {
      logger: pino({ level: 'silent' }),
      banner: (line) => banner.push(line),
    });
    return { running, banner: banner.join('\n') };
  };
  // The README's first request.
  const firstCurl = (base: string, headers: Record<string, string> = {}) =>
    fetch(`${base}/v2/campaigns`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: '{"visitor_id":"v1","context":{"plan":"gold"}}',
    });

  it('creates account and environment "default" on an empty storage, says so, and the README\'s first request answers 200', async () => {
    const storage = `sqlite:${join(dir, 'fresh.db')}`;
    const first = await start({ ABKIT_STORAGE: storage });
    try {
      expect(first.banner).toContain('created account "default" with environment "default" (no campaigns yet');
      const res = await firstCurl(first.running.url);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { campaigns: unknown[] }).campaigns).toEqual([]);
    } finally {
      await first.running.close();
    }
    // A second start finds it: nothing is created again, nothing said.
    const second = await start({ ABKIT_STORAGE: storage });
    try {
      expect(second.banner).not.toContain('created account');
      expect((await firstCurl(second.running.url)).status).toBe(200);
    } finally {
      await second.running.close();
    }
  });

  it('creates nothing with a bootstrap file, nor on a storage that holds any environment', async () => {
    const bootstrap = join(dir, 'bootstrap.json');
    writeFileSync(bootstrap, JSON.stringify({ accounts: [{ id: 'acme', environments: [{ id: 'prod', bucketing: { campaigns: [] } }] }] }));
    const storage = `sqlite:${join(dir, 'seeded.db')}`;
    const seeded = await start({ ABKIT_STORAGE: storage, ABKIT_BOOTSTRAP: bootstrap });
    await seeded.running.close();
    expect(seeded.banner).not.toContain('created account');
    const again = await start({ ABKIT_STORAGE: storage });
    try {
      expect(again.banner).not.toContain('created account');
      // The storage is the operator's: the missing default environment is named, not created.
      const res = await firstCurl(again.running.url);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('environment \\"default\\" does not exist');
    } finally {
      await again.running.close();
    }
  });

  it('with ABKIT_API_KEY, the created environment requires it', async () => {
    const key = 'a-decision-api-key-0001';
    const { running } = await start({ ABKIT_STORAGE: 'memory', ABKIT_API_KEY: key });
    try {
      expect((await firstCurl(running.url)).status).toBe(401);
      expect((await firstCurl(running.url, { 'x-api-key': key })).status).toBe(200);
    } finally {
      await running.close();
    }
  });
});

const cli = join(root, 'dist/cli.js');
describeIf(need(existsSync(cli), 'dist/ is absent; npm test builds it first'), 'the built dist/cli.js', () => {
  const node = (args: string[]) =>
    spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: { ...process.env, ABKIT_STORAGE: '' } });

  it('exits with the codes runCli gives: --version 0, an unknown command 2, an invalid file 1', () => {
    expect(execFileSync(process.execPath, [cli, '--version'], { encoding: 'utf8' })).toBe(`${version}\n`);
    const unknown = node(['frobnicate']);
    expect([unknown.status, unknown.stdout, unknown.stderr]).toEqual([2, '', 'abkit: unknown command "frobnicate" (see abkit --help)\n']);
    const missing = node(['validate', join(root, 'no-such-file.json')]);
    expect(missing.status).toBe(1);
    expect(missing.stdout).toContain('ENOENT');
  });

  it('a bootstrap file with a misspelt key stops the start: exit 1, one line naming the key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'abkit-typo-'));
    writeFileSync(join(dir, 'bootstrap.json'), '{"acounts": []}');
    const typo = node(['serve', '--port', '0', '--storage', 'memory', '--bootstrap', join(dir, 'bootstrap.json')]);
    expect(typo.status).toBe(1);
    expect(typo.stderr).toBe('abkit: cannot start: invalid bootstrap file: acounts: unknown key "acounts" (did you mean "accounts"?)\n');
  });

  it("a fresh start says what it created, answers the README's first request, and exits 0 on SIGTERM", async () => {
    const child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--storage', 'memory'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.resume();
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const base = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const m = /serving on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
        if (m && stderr.includes('Try:')) resolve(m[1]!);
      });
      void exited.then((code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
    try {
      expect(stderr).toContain('created account "default" with environment "default"');
      const res = await fetch(`${base}/v2/campaigns`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"visitor_id":"v1","context":{"plan":"gold"}}',
      });
      expect(res.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
