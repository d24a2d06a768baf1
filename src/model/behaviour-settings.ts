/**
 * Behaviour ranking's settings as catalog settings and `search` modifications carry them (the
 * JSON part: the host injects the source), and the bounds of its guardrails. Lower than search,
 * so a campaign's settings are checked where its configuration is loaded.
 *
 * @module
 */
import { z } from 'zod';

/** Bounds of the re-ranking guardrails (docs/interfaces.md, Limits). */
const RERANK_BOUNDS = { minExamined: [0, 1e9], maxShift: [0, 50], depth: [1, 200], priorExamined: [0, 1e9] } as const;

/** A guardrail's schema: a number (an integer) within its bounds, the message saying so. */
const bounded = (name: keyof typeof RERANK_BOUNDS, integer: boolean) => {
  const [lo, hi] = RERANK_BOUNDS[name];
  const message = `must be ${integer ? 'an integer' : 'a number'} from ${lo} to ${hi}`;
  const n = z.number(message);
  return (integer ? n.int(message) : n).min(lo, message).max(hi, message).optional();
};

export const rerankSchema = z.strictObject({
  minExamined: bounded('minExamined', false),
  maxShift: bounded('maxShift', true),
  depth: bounded('depth', true),
  priorExamined: bounded('priorExamined', false),
});

/**
 * Schema of the `behaviour` catalog search setting (the JSON part of `BehaviourOptions` (abkit/types):
 * the host injects the source).
 *
 * @example
 * ```ts
 * behaviourSettingsSchema.parse({ enabled: true, rerank: { maxShift: 2 } });
 * ```
 */
export const behaviourSettingsSchema = z.union([
  z.boolean(),
  z.strictObject({ enabled: z.boolean().optional(), rerank: z.union([z.boolean(), rerankSchema]).optional() }),
]);
