/** A tiny timing harness: warm up, then run for a fixed time and report operations per second. */
export interface Row {
  name: string;
  opsPerSec: number;
  /** Operations per second relative to the baseline of the same run (>1 = faster). */
  ratio?: number;
}

export async function measure(name: string, op: () => unknown, baseline?: Row, seconds = 1.5): Promise<Row> {
  const run = async (ms: number) => {
    let count = 0;
    const start = performance.now();
    while (performance.now() - start < ms) {
      for (let i = 0; i < 64; i++) {
        const r = op();
        if (r instanceof Promise) await r;
      }
      count += 64;
    }
    return count / ((performance.now() - start) / 1000);
  };
  await run(300);
  const opsPerSec = await run(seconds * 1000);
  return { name, opsPerSec, ...(baseline ? { ratio: opsPerSec / baseline.opsPerSec } : {}) };
}

export function print(title: string, rows: Row[]): void {
  console.log(`\n## ${title}`);
  for (const r of rows) {
    const ratio = r.ratio === undefined ? 'baseline' : `${r.ratio.toFixed(3)} × baseline`;
    console.log(`${r.name.padEnd(78)} ${Math.round(r.opsPerSec).toLocaleString('en-US').padStart(12)} ops/s  ${ratio}`);
  }
}
