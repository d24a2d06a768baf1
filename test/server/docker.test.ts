/**
 * The container image: built from the Dockerfile and started, then asked for readiness and a
 * decision. It runs wherever a Docker daemon is reachable and the base image can be had (present,
 * or pulled within three minutes); otherwise, or with ABKIT_TEST_DOCKER=0, it is skipped with the
 * reason in its name. Building takes a few minutes (npm ci in the image).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(__dirname, '../..');
const BASE_IMAGE = 'node:20-slim';
const docker = (args: string[], timeout: number) => spawnSync('docker', args, { stdio: 'ignore', timeout }).status === 0;
const optedOut = process.env.ABKIT_TEST_DOCKER === '0';
const daemon = !optedOut && docker(['info'], 20_000);
// Without a registry (a closed network) the build cannot start: that is a skip, not a failure.
const base = daemon && (docker(['image', 'inspect', BASE_IMAGE], 20_000) || docker(['pull', BASE_IMAGE], 180_000));
const wanted = daemon && base;
const reason = optedOut
  ? 'skipped: ABKIT_TEST_DOCKER=0'
  : !daemon
    ? 'skipped: no Docker daemon reachable'
    : !base
      ? `skipped: the base image ${BASE_IMAGE} is neither present nor pullable`
      : 'runs';
const name = `abkit-test-${process.pid}`;

afterAll(() => {
  if (wanted) spawnSync('docker', ['rm', '-f', name], { stdio: 'ignore' });
});

describe.skipIf(!wanted)(`Docker image (${reason})`, () => {
  it('builds, runs as a non-root user, and serves abkit on port 8080', async () => {
    execFileSync('docker', ['build', '-t', 'abkit:test', root], { stdio: 'inherit', timeout: 900_000 });
    expect(execFileSync('docker', ['run', '--rm', '--entrypoint', 'id', 'abkit:test', '-u'], { encoding: 'utf8' }).trim()).not.toBe('0');
    execFileSync('docker', ['run', '-d', '--name', name, '-p', '127.0.0.1::8080', 'abkit:test'], { stdio: 'ignore' });
    const port = execFileSync('docker', ['port', name, '8080'], { encoding: 'utf8' }).trim().split(':').pop();
    let ready: Response | undefined;
    for (let i = 0; i < 60 && !ready?.ok; i++) {
      ready = await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => undefined);
      if (!ready?.ok) await new Promise((r) => setTimeout(r, 500));
    }
    expect(ready?.status).toBe(200);
    const res = await fetch(`http://127.0.0.1:${port}/v2/campaigns`, { method: 'POST', body: '{"visitor_id":"v1"}' });
    expect([200, 400]).toContain(res.status);
  }, 1_000_000);
});

describe.runIf(!wanted)('Docker image', () => {
  it.skip(reason, () => undefined);
});
