import { describe, expect, it } from 'vitest';
import { DecisionEngine, memoryStorage, ValidationError, type ErrorDetail, ExperimentService } from '../../src/index';
import { MAX_EVENT_NAME_LENGTH, MAX_EVENTS_PER_CALL } from '../../src/results/track';
import { config } from '../helpers/configs';

async function engineAt(now: number) {
  const storage = memoryStorage();
  const engine = new DecisionEngine({ storage, clock: () => now });
  await engine.load(config([{ id: 'c1', split: [50, 50] }]));
  await engine.load(config([{ id: 'c2', split: [100] }]), { environment: 'prod' });
  return { engine, storage, experiments: new ExperimentService({ engine }) };
}

async function problems(run: () => Promise<unknown>): Promise<ErrorDetail[]> {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return [...(error as ValidationError).details];
}

describe('ExperimentService.track', () => {
  it('records an event in the default environment at the engine clock, value null when absent', async () => {
    const { experiments, storage } = await engineAt(5000);
    await experiments.track({ visitorId: 'v1', event: 'signup' });
    await experiments.track({ visitorId: 'v1', event: 'purchase', value: 12.5, environment: 'prod', timestamp: 4000 });
    expect(await storage.events.list({ environmentId: 'default' })).toEqual([
      { environmentId: 'default', visitorId: 'v1', event: 'signup', value: null, timestamp: 5000 },
    ]);
    expect(await storage.events.list({ environmentId: 'prod' })).toEqual([
      { environmentId: 'prod', visitorId: 'v1', event: 'purchase', value: 12.5, timestamp: 4000 },
    ]);
  });

  it('records a list all or nothing, naming each bad element by index', async () => {
    const { experiments, storage } = await engineAt(5000);
    const details = await problems(() =>
      experiments.track([
        { visitorId: 'v1', event: 'purchase', value: 3 },
        { visitorId: '', event: 'purchase' },
        { visitorId: 'v3', event: 'purchase', value: Number.NaN },
        { visitorId: 'v4', event: 'purchase', environment: 'nowhere' },
      ]),
    );
    expect(details).toEqual([
      { path: [1, 'visitorId'], message: 'must be a non-empty string' },
      { path: [2, 'value'], message: 'must be a finite number or null' },
      { path: [3, 'environment'], message: '"nowhere" is not a known environment' },
    ]);
    expect(await storage.events.list({ environmentId: 'default' })).toEqual([]);
    await experiments.track([
      { visitorId: 'v1', event: 'a' },
      { visitorId: 'v2', event: 'b', environment: 'prod' },
    ]);
    expect((await storage.events.list({ environmentId: 'default' })).map((e) => e.event)).toEqual(['a']);
  });

  it.each([
    ['an empty event name', { visitorId: 'v', event: '' }, 'event'],
    ['a too long event name', { visitorId: 'v', event: 'x'.repeat(MAX_EVENT_NAME_LENGTH + 1) }, 'event'],
    ['an infinite value', { visitorId: 'v', event: 'e', value: Infinity }, 'value'],
    ['a string value', { visitorId: 'v', event: 'e', value: '12' }, 'value'],
    ['a negative timestamp', { visitorId: 'v', event: 'e', timestamp: -1 }, 'timestamp'],
    ['a fractional timestamp', { visitorId: 'v', event: 'e', timestamp: 1.5 }, 'timestamp'],
    ['an empty environment', { visitorId: 'v', event: 'e', environment: '' }, 'environment'],
    ['a missing visitor', { event: 'e' }, 'visitorId'],
  ])('refuses %s, naming the field', async (_, input, path) => {
    const { experiments } = await engineAt(0);
    const details = await problems(() => experiments.track(input as never));
    expect(details.map((d) => d.path)).toEqual([[path]]);
  });

  it('refuses a non-object and a list over the per-call limit', async () => {
    const { experiments, storage } = await engineAt(0);
    expect((await problems(() => experiments.track([null as never])))[0]!.path).toEqual([0]);
    const many = Array.from({ length: MAX_EVENTS_PER_CALL + 1 }, (_, i) => ({ visitorId: `v${i}`, event: 'e' }));
    expect((await problems(() => experiments.track(many)))[0]!.message).toMatch(/at most 1000/);
    await experiments.track(many.slice(1));
    expect(await storage.events.list({ environmentId: 'default' })).toHaveLength(MAX_EVENTS_PER_CALL);
  });
});
