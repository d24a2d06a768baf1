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
  return (await startChild(env)).base;
}

async function startChild(env: Record<string, string> = {}): Promise<{ base: string; child: ChildProcess; output: () => string }> {
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
        resolve({ base: m[1]!, child, output: () => output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
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

  it('logs one line per request and, on SIGTERM, finishes the request in flight before closing', async () => {
    const { base, child, output } = await startChild();
    await fetch(`${base}/v2/campaigns`, { method: 'POST', body: '{"visitor_id":"v1"}' });
    await new Promise((r) => setTimeout(r, 100));
    expect(output()).toMatch(/^POST \/v2\/campaigns 200 \d+\.\dms$/m);
    // A request whose body is still arriving when SIGTERM comes.
    let push!: (text: string) => void;
    let end!: () => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (text) => controller.enqueue(new TextEncoder().encode(text));
        end = () => controller.close();
      },
    });
    const pending = fetch(`${base}/v2/campaigns`, { method: 'POST', body, duplex: 'half' } as RequestInit);
    push('{"visitor_id":');
    await new Promise((r) => setTimeout(r, 200));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    push('"v2"}');
    end();
    const res = await pending;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { visitor_id: string }).visitor_id).toBe('v2');
    expect(await exited).toBe(0);
    expect(output()).toMatch(/SIGTERM: finishing 1 request\(s\), then closing[\s\S]*closed/);
  });
});
