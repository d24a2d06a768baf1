import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64url, constantTimeEqual, credentialHash, hmacHexWeb, randomCredential, sha256Hex, sha256HexWeb } from '../src/crypto';

describe('hashing', () => {
  it('matches the FIPS 180-2 and RFC 4231 vectors', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256HexWeb('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    // RFC 4231 test case 2.
    const expected = '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843';
    expect(await credentialHash('what do ya want for nothing?', 'Jefe')).toBe(expected);
    expect(await hmacHexWeb('what do ya want for nothing?', 'Jefe')).toBe(expected);
  });

  it('the node:crypto and Web Crypto paths agree on any text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme' }), fc.string({ minLength: 1 }), async (text, pepper) => {
        expect(await sha256Hex(text)).toBe(await sha256HexWeb(text));
        expect(await credentialHash(text, pepper)).toBe(await hmacHexWeb(text, pepper));
      }),
      { numRuns: 200 },
    );
  });
});

describe('credentials', () => {
  it('base64url has no padding and no + or /', () => {
    expect(base64url(new Uint8Array([0xfb, 0xff, 0xfe]))).toBe('-__-');
    expect(base64url(new Uint8Array([1]))).toBe('AQ');
  });

  it('randomCredential uses the random source and refuses a short one', () => {
    expect(randomCredential('p_', 3, (n) => new Uint8Array(n).fill(0xff))).toBe('p_' + '____');
    expect(() => randomCredential('p_', 32, () => new Uint8Array(8))).toThrow(/must return 32 bytes/);
  });

  it('constantTimeEqual compares like ===', () => {
    fc.assert(fc.property(fc.string(), fc.string(), (a, b) => constantTimeEqual(a, b) === (a === b)));
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
  });
});
