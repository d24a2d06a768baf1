/**
 * Conversion events as the library takes them, and their checks: pure, shared by
 * `ExperimentService.track` and `POST /v2/events`.
 *
 * @module
 */
import type { ErrorDetail, ErrorPath } from '../errors';
import { idLengthProblem } from '../decision/limits';

/**
 * Longest event (metric) name, in characters.
 *
 * @example
 * ```ts
 * const event = 'checkout-completed-with-a-very-long-name'.slice(0, MAX_EVENT_NAME_LENGTH);
 * await experiments.track({ visitorId: 'v1', event });
 * ```
 */
export const MAX_EVENT_NAME_LENGTH = 100;

/**
 * Most events one `track` call (or one `POST /v2/events` batch) records.
 *
 * @example
 * ```ts
 * const queue: TrackInput[] = Array.from({ length: 2500 }, (_, i) => ({ visitorId: `v${i}`, event: 'purchase' }));
 * for (let i = 0; i < queue.length; i += MAX_EVENTS_PER_CALL) await experiments.track(queue.slice(i, i + MAX_EVENTS_PER_CALL));
 * ```
 */
export const MAX_EVENTS_PER_CALL = 1000;

/**
 * One conversion event to record.
 *
 * @example
 * ```ts
 * const purchase: TrackInput = { visitorId: 'v1', environment: 'prod', event: 'purchase', value: 42.5 };
 * await experiments.track(purchase);
 * ```
 */
export interface TrackInput {
  /** The visitor who converted; the id its activations carry (at most 256 characters). */
  visitorId: string;
  /** Environment. @defaultValue the engine's `defaultEnvironment` */
  environment?: string;
  /** Event (metric) name, 1 to {@link MAX_EVENT_NAME_LENGTH} characters, e.g. `purchase`. */
  event: string;
  /** A finite number such as revenue; absent or null for a plain conversion. */
  value?: number | null;
  /** When it happened, epoch milliseconds. @defaultValue the engine's clock */
  timestamp?: number;
}

/** Pushes a detail for each problem of one event; `prefix` is its path in a list (`[3]`) or `[]`. */
export function trackProblems(input: TrackInput, prefix: ErrorPath, details: ErrorDetail[]): void {
  const at = (field: string): ErrorPath => [...prefix, field];
  if (input === null || typeof input !== 'object') {
    details.push({ path: prefix, message: 'must be an object' });
    return;
  }
  if (typeof input.visitorId !== 'string' || input.visitorId === '')
    details.push({ path: at('visitorId'), message: 'must be a non-empty string' });
  else idLengthProblem(input.visitorId, at('visitorId'), details);
  if (typeof input.event !== 'string' || input.event === '') details.push({ path: at('event'), message: 'must be a non-empty string' });
  else if (input.event.length > MAX_EVENT_NAME_LENGTH)
    details.push({ path: at('event'), message: `must be at most ${MAX_EVENT_NAME_LENGTH} characters` });
  if (input.environment !== undefined && (typeof input.environment !== 'string' || input.environment === '')) {
    details.push({ path: at('environment'), message: 'must be a non-empty string' });
  }
  if (input.value != null && !(typeof input.value === 'number' && Number.isFinite(input.value)))
    details.push({ path: at('value'), message: 'must be a finite number or null' });
  if (input.timestamp !== undefined && !(Number.isSafeInteger(input.timestamp) && input.timestamp >= 0)) {
    details.push({ path: at('timestamp'), message: 'must be a non-negative integer (epoch milliseconds)' });
  }
}
