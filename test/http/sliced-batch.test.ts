/**
 * A 10,000-operation catalog batch is parsed and validated in slices, giving the event loop a turn
 * between them, so decisions are served meanwhile (ARCHITECTURE.md, Reliability). Guarded by
 * counting turns, not by timing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeUtf8, jsonBodySteps, parseJsonBody } from '../../src/body';
import { runAtOnce, SLICE_OPERATIONS } from '../../src/slices';
import { CATALOG_KEY, item, stack } from '../helpers/stack';

const encode = (text: string) => new TextEncoder().encode(text);
const outcome = (run: () => unknown) => {
  try {
    return { value: run() };
  } catch (error) {
    return { error: (error as { code?: string }).code };
  }
};

describe('jsonBodySteps', () => {
  it('parses any JSON value as JSON.parse does, whatever the spacing', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.constantFrom(undefined, 0, 2), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(runAtOnce(jsonBodySteps(encode(text)))).toEqual(parseJsonBody(text));
      }),
      { numRuns: 500 },
    );
  });

  it('arrays of many elements, split into groups, come back whole and in order', () => {
    const big = Array.from({ length: SLICE_OPERATIONS * 3 + 7 }, (_, i) => ({ i, s: `x,]}[{"${i}` }));
    expect(runAtOnce(jsonBodySteps(encode(` \n${JSON.stringify(big)}\n `)))).toEqual(big);
    expect(runAtOnce(jsonBodySteps(encode('[ ]')))).toEqual([]);
  });

  it('refuses what JSON.parse refuses, with the same code, and names the bad element', () => {
    const cases = ['[1,]', '[,1]', '[1 2]', '[1}', '[1] x', '[[1]', '[', '[1,{"a":}]', '["\\u12"]', '[1,,2]'];
    for (const text of cases) {
      expect(
        outcome(() => runAtOnce(jsonBodySteps(encode(text)))),
        text,
      ).toEqual(outcome(() => parseJsonBody(text)));
    }
    const many = `[${Array.from({ length: 600 }, (_, i) => (i === 555 ? '{"a":tru}' : '1')).join(',')}]`;
    expect(() => runAtOnce(jsonBodySteps(encode(many)))).toThrow(/element 555/);
    expect(() => runAtOnce(jsonBodySteps(new Uint8Array([0x5b, 0x22, 0xff, 0x22, 0x5d])))).toThrow(/not valid UTF-8/);
  });

  it('agrees with parseJsonBody on arbitrary text near JSON', () => {
    const near = fc
      .array(fc.constantFrom('[', ']', '{', '}', ',', ':', '"', '\\', '1', 'a', ' ', 'true', '"k"'), { maxLength: 30 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(near, (text) => {
        expect(outcome(() => runAtOnce(jsonBodySteps(encode(text))))).toEqual(outcome(() => parseJsonBody(decodeUtf8(encode(text)))));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('a 10,000-operation batch', () => {
  it('gives the event loop a turn at least every 250 operations, and decisions answer meanwhile', async () => {
    const { call, catalog } = await stack();
    const operations = Array.from({ length: 10_000 }, (_, i) => ({
      operation: 'create-replace',
      product: item(`b${i}`, { brand: `brand${i % 50}` }),
    }));
    let turns = 0;
    let decisions = 0;
    let done = false;
    const tick = () => {
      if (done) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const decide = async () => {
      while (!done) {
        expect((await call('POST', '/v2/campaigns', { body: { visitor_id: `v${decisions}` } })).status).toBe(200);
        decisions++;
        // In-process requests complete in microtasks: wait a turn, as a socket would.
        await new Promise((r) => setImmediate(r));
      }
    };
    const deciding = decide();
    const res = await call('POST', '/indexes/catalog/batch', { token: CATALOG_KEY, body: operations });
    done = true;
    await deciding;
    expect(res.status).toBe(200);
    expect(await catalog.count()).toBe(10_050);
    // Parsing in groups of 250 and validating in slices of 250: 80 turns at least.
    expect(turns).toBeGreaterThanOrEqual((2 * 10_000) / SLICE_OPERATIONS);
    expect(decisions).toBeGreaterThan(10);
  });
});
