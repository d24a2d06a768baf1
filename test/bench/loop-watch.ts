/**
 * The longest event-loop stall of a phase of a benchmark: by `monitorEventLoopDelay` (wall
 * clock) and by the main thread's CPU time between two turns of a 1 ms timer, which a busy
 * machine does not lengthen.
 */
import { existsSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { median } from './relevance-metrics';

/** The longest stall of one phase: by the event-loop delay monitor, and by the CPU time that held it. */
export interface PhaseStall {
  /** `monitorEventLoopDelay` max: wall clock, so it also counts time the OS ran other processes. */
  wall: number;
  /**
   * Most CPU time the main thread used between two consecutive turns of a 1 ms timer: work that
   * really held the loop, garbage collection pauses included. Where the main thread's own clock
   * cannot be read, the whole process's (garbage collector helper threads included).
   */
  cpu: number;
  /** Of the longest wall-clock gap between two turns: the time the main thread waited for a CPU (Linux). */
  waitedInLongest: number;
  /**
   * Of the longest wall-clock gap: the time the main thread neither ran nor waited for a CPU, but
   * slept (Linux): on I/O, or on garbage-collector threads it waits for (which a busy machine also delays).
   */
  blockedInLongest: number;
}

// Linux: run and run-queue wait times of this thread, in nanoseconds.
const SCHEDSTAT = '/proc/thread-self/schedstat';
export const perThread = existsSync(SCHEDSTAT);

/** CPU time used (main thread where readable, else the process) and time spent waiting for a CPU, in ms. */
function clocks(): { cpu: number; waited: number } {
  if (perThread) {
    const [run, wait] = readFileSync(SCHEDSTAT, 'latin1').split(' ');
    return { cpu: Number(run) / 1e6, waited: Number(wait) / 1e6 };
  }
  const { user, system } = process.cpuUsage();
  return { cpu: (user + system) / 1000, waited: NaN };
}

/**
 * Watches the event loop until `stop()`. Resolves once the monitor has fired twice: its first
 * firing only records a time, so work started before it (a chain of promise reactions that
 * never returns to the loop, such as a synchronous database read awaited at once) would
 * otherwise be missed.
 */
export async function watchLoop(): Promise<{ stop(): Promise<PhaseStall> }> {
  const monitor = monitorEventLoopDelay({ resolution: 1 });
  monitor.enable();
  let last = clocks();
  let lastAt = performance.now();
  let maxCpu = 0;
  let maxGap = 0;
  let waitedInLongest = 0;
  let blockedInLongest = 0;
  let timer: NodeJS.Timeout;
  const tick = () => {
    const now = clocks();
    const at = performance.now();
    maxCpu = Math.max(maxCpu, now.cpu - last.cpu);
    if (at - lastAt > maxGap) {
      maxGap = at - lastAt;
      waitedInLongest = now.waited - last.waited;
      blockedInLongest = Math.max(0, maxGap - (now.cpu - last.cpu) - waitedInLongest);
    }
    last = now;
    lastAt = at;
    timer = setTimeout(tick, 1);
  };
  timer = setTimeout(tick, 1);
  await new Promise((r) => setTimeout(r, 5));
  return {
    async stop() {
      await new Promise((r) => setTimeout(r, 5));
      clearTimeout(timer);
      monitor.disable();
      return { wall: monitor.max / 1e6, cpu: maxCpu, waitedInLongest, blockedInLongest: perThread ? blockedInLongest : NaN };
    },
  };
}

/** Milliseconds for a report: three decimals under 10, one above. */
export function ms(n: number): string {
  return n < 10 ? n.toFixed(3) : n.toFixed(1);
}

/** One report line: the stalls of every round of a phase, their median, and the CPU that held the loop. */
export function phaseLine(label: string, phases: readonly PhaseStall[], target: string): string {
  const wall = phases.map((s) => s.wall);
  const cpu = phases.map((s) => s.cpu);
  const waited = phases.map((s) => s.waitedInLongest);
  const blocked = phases.map((s) => s.blockedInLongest);
  return (
    `longest stall during ${label}: ${wall.map(ms).join(', ')} ms (median ${ms(median(wall))}${target}); ` +
    `most ${perThread ? 'main-thread' : 'process'} CPU time between two loop turns: ${cpu.map(ms).join(', ')} ms (median ${ms(median(cpu))})` +
    (perThread
      ? `; of the longest gap, time spent waiting for a CPU: ${waited.map(ms).join(', ')} ms, asleep (I/O, or garbage-collector threads): ${blocked.map(ms).join(', ')} ms`
      : '')
  );
}
