import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGTERM');
});

/** Starts examples/server.ts (what `npm start` runs) on a free port and returns its base URL. */
async function start(env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/server.ts'], {
    // A fresh SQLite file per server: the default storage, without touching the repo's .abkit/.
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ABKIT_STORAGE: `sqlite:${join(mkdtempSync(join(tmpdir(), 'abkit-server-')), 'abkit.db')}`, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (m && output.includes('curl -s -XPOST')) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}

describe('demo server (npm start)', () => {
  it('answers /v2/campaigns with campaigns from the demo environment', async () => {
    const base = await start();
    const res = await fetch(`${base}/v2/campaigns`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ visitor_id: 'v1', context: {} }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { visitor_id: string; campaigns: { id: string }[]; panic: boolean };
    expect(body.visitor_id).toBe('v1');
    expect(body.panic).toBe(false);
    expect(body.campaigns.map((c) => c.id)).toContain('checkout-button');
    const gold = (await (
      await fetch(`${base}/v2/campaigns`, { method: 'POST', body: JSON.stringify({ visitor_id: 'v1', context: { plan: 'Gold' } }) })
    ).json()) as { campaigns: { id: string }[] };
    expect(gold.campaigns.map((c) => c.id)).toContain('vip-free-shipping');
  });

  it('honours ABKIT_BOOTSTRAP, with bucketing files relative to it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'abkit-boot-'));
    writeFileSync(
      join(dir, 'staging.json'),
      JSON.stringify({ panic: true, campaigns: [] }),
    );
    writeFileSync(
      join(dir, 'bootstrap.json'),
      JSON.stringify({ accounts: [{ id: 'acme', environments: [{ id: 'staging', default: true, bucketingFile: 'staging.json' }] }] }),
    );
    const base = await start({ ABKIT_BOOTSTRAP: join(dir, 'bootstrap.json') });
    const res = await fetch(`${base}/v2/campaigns`, { method: 'POST', body: '{"visitor_id":"v"}' });
    expect(await res.json()).toEqual({ visitor_id: 'v', campaigns: [], panic: true });
  });
});
