/**
 * Vectors of hybrid search: unit length, and their cosine as a dot product.
 *
 * @module
 */

/** `v` scaled to unit length (a zero vector stays zero). */
export function unit(v: readonly number[]): Float32Array {
  const out = Float32Array.from(v);
  let norm = 0;
  for (const x of out) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i]! /= norm;
  return out;
}

/** The dot product over the shorter length (the cosine of unit vectors). */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) s += a[i]! * b[i]!;
  return s;
}
