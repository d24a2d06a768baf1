/**
 * Heap over 1,000,000 decisions with memory writes (10 campaigns, every visitor new): the JS heap
 * after a full garbage collection at each quarter, and what the memory store retains. With the
 * store's bounds (`maxActivations`, `maxAssignments`) the heap grows until they are reached and
 * stays flat after.
 */
import { DecisionEngine, memoryStorage } from '../../src/index';
import { campaigns, CONTEXT } from './decision';
import { collectGarbage } from './gc';

function heapMb(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed / 1e6;
}

export async function benchDecisionHeap(decisions = 1_000_000, size = 10): Promise<void> {
  // The defaults of memoryStorage().
  const maxActivations = 1_000_000;
  const maxAssignments = 2_000_000;
  const storage = memoryStorage();
  const engine = new DecisionEngine({ storage });
  await engine.load(campaigns(size));
  const sizes = storage as unknown as { activations: { size: number }; assignments: { size: number } };
  const before = heapMb();
  console.log(
    `\n## Heap over ${decisions.toLocaleString('en-US')} decisions with memory writes (${size} campaigns, new visitor each; maxActivations ${maxActivations.toLocaleString('en-US')}, maxAssignments ${maxAssignments.toLocaleString('en-US')})`,
  );
  console.log(`decisions        heap MB (after GC)   retained activations   retained assignments`);
  console.log(`${'0'.padStart(9)} ${before.toFixed(1).padStart(20)} ${'0'.padStart(22)} ${'0'.padStart(22)}`);
  const quarter = decisions / 4;
  let sink = 0;
  for (let n = 0; n < decisions; ) {
    const end = n + quarter;
    for (; n < end; n++) sink ^= (await engine.decide({ visitorId: `visitor-${n}`, context: CONTEXT })).campaigns.length;
    const mb = heapMb();
    console.log(
      `${n.toLocaleString('en-US').padStart(9)} ${mb.toFixed(1).padStart(20)} ${sizes.activations.size.toLocaleString('en-US').padStart(22)} ${sizes.assignments.size.toLocaleString('en-US').padStart(22)}`,
    );
  }
  if (sink === 0.5) console.log(sink);
}
