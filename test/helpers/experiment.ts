/** Simulated experiments through the real engine: bucketing, activations and conversion events. */
import { prng } from '../../examples/demo/generate-products';
import { ExperimentService, type DecisionEngine } from '../../src/index';
import type { TrackInput } from '../../src/results/track';

export interface Simulation {
  /** Visitors to decide for (each gets an activation). */
  visitors: number;
  /** Variation id → true conversion probability. */
  rates: Readonly<Record<string, number>>;
  /** Mean order value of a converting visitor (exponentially distributed), per variation; absent: no value. */
  orderValue?: Readonly<Record<string, number>>;
  seed: number;
  environment?: string;
  /** The metric tracked. */
  event?: string;
}

/** Decides for every visitor (recording activations), then tracks its conversion with the variation's probability. */
export async function simulate(engine: DecisionEngine, s: Simulation): Promise<void> {
  const experiments = new ExperimentService({ engine });
  const random = prng(s.seed);
  let pending: TrackInput[] = [];
  for (let i = 0; i < s.visitors; i++) {
    const visitorId = `s${s.seed}-v${i}`;
    const { campaigns } = await engine.decide({ visitorId, environment: s.environment });
    const variationId = campaigns[0]!.variation.id;
    // Noise a conversion before exposure would add, which results must ignore.
    if (random() < 0.02)
      pending.push({ visitorId: `s${s.seed}-never-exposed-${i}`, environment: s.environment, event: s.event ?? 'purchase', value: 100 });
    if (random() >= s.rates[variationId]!) continue;
    const mean = s.orderValue?.[variationId];
    pending.push({
      visitorId,
      environment: s.environment,
      event: s.event ?? 'purchase',
      value: mean === undefined ? null : -mean * Math.log(1 - random()),
    });
    if (pending.length >= 500) {
      await experiments.track(pending);
      pending = [];
    }
  }
  if (pending.length > 0) await experiments.track(pending);
}
