import { describe, expect, it } from 'vitest';
import { OneAtATime } from '../../src/access/one-at-a-time';

describe('OneAtATime', () => {
  it('runs the tasks of one key one after another, in order, past a failing one; keys apart run together; empty queues are dropped', async () => {
    const queue = new OneAtATime();
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const task =
      (name: string, fail = false) =>
      async () => {
        most = Math.max(most, ++running);
        log.push(`start ${name}`);
        await new Promise((r) => setTimeout(r, 1));
        log.push(`end ${name}`);
        running--;
        if (fail) throw new Error(name);
        return name;
      };
    const a = [queue.run('a', task('a1')), queue.run('a', task('a2', true)), queue.run('a', task('a3'))];
    const b = queue.run('b', task('b1'));
    expect(queue.size).toBe(2);
    const settled = await Promise.allSettled([...a, b]);
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual(['a1', 'a2', 'a3', 'b1']);
    expect(log.filter((l) => l.includes(' a'))).toEqual(['start a1', 'end a1', 'start a2', 'end a2', 'start a3', 'end a3']);
    expect(most).toBe(2);
    await Promise.resolve();
    expect(queue.size).toBe(0);
  });
});
