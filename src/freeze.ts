/** Freezes a value and everything it holds, in place, and returns it. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * A deep-frozen copy of a JSON value (objects, arrays, scalars), much cheaper than
 * `structuredClone` followed by {@link deepFreeze}. Own keys such as `__proto__` are kept as
 * plain data properties.
 */
export function frozenCopy<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  // Already a copy made here (a batch copies its items in slices before a store keeps them).
  if (Object.hasOwn(value, COPY)) return value;
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = frozenCopy(value[i]);
    return sealCopy(out) as T;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const v = frozenCopy((value as Record<string, unknown>)[key]);
    if (key === '__proto__') Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
    else out[key] = v;
  }
  return sealCopy(out) as T;
}

// Marks every value frozenCopy made (deep-frozen by construction, so copying it again is
// pointless). A hidden own property, not a WeakSet: a WeakSet of every item and list of a
// 100,000-item catalog costs each full garbage collection tens of milliseconds of pause
// (ephemeron clearing), during which nothing else runs. Not enumerable: spreads, JSON and
// equality checks never see it; JSON input cannot forge a symbol key.
const COPY = Symbol('abkit.frozenCopy');

function sealCopy(out: object): object {
  Object.defineProperty(out, COPY, { value: true });
  return Object.freeze(out);
}
