/**
 * The container image: built from the Dockerfile and started, then asked for readiness and a
 * decision. Building takes minutes, so it runs only with ABKIT_TEST_DOCKER=1 and a reachable
 * Docker daemon; otherwise it is skipped with the reason in its name.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(__dirname, '../..');
const daemon = spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 20_000 }).status === 0;
const wanted = process.env.ABKIT_TEST_DOCKER === '1';
const reason = !wanted ? 'skipped: set ABKIT_TEST_DOCKER=1 to build the image (takes minutes)' : !daemon ? 'skipped: no Docker daemon reachable' : 'runs';
const name = `abkit-test-${process.pid}`;

afterAll(() => {
  if (wanted && daemon) spawnSync('docker', ['rm', '-f', name], { stdio: 'ignore' });
});

describe.skipIf(!wanted || !daemon)(`Docker image (${reason})`, () => {
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

describe.runIf(!wanted || !daemon)('Docker image', () => {
  it.skip(reason, () => undefined);
});
