/**
 * Lazily built Web objects: a class that answers the cheap properties itself and hands
 * everything else to the real undici object, built on first need.
 *
 * @module
 */

/**
 * Makes instances of `lazy` pass for instances of `base` (`instanceof` holds): every property of
 * `base.prototype` that `lazy.prototype` does not define (besides `skip`) is forwarded to the
 * object `real(instance)` returns.
 *
 * @example
 * ```ts
 * class LazyResponse { real(): Response { return new Response('hi'); } }
 * delegateToReal(LazyResponse, Response, (r) => r.real());
 * await (new LazyResponse() as unknown as Response).text(); // 'hi'
 * ```
 */
export function delegateToReal<T extends object>(
  lazy: abstract new (...args: never[]) => T,
  base: { prototype: object },
  real: (instance: T) => object,
  skip: readonly string[] = [],
): void {
  for (const name of Object.getOwnPropertyNames(base.prototype)) {
    if (name === 'constructor' || skip.includes(name) || Object.hasOwn(lazy.prototype, name)) continue;
    const descriptor = Object.getOwnPropertyDescriptor(base.prototype, name)!;
    if (typeof descriptor.value === 'function') {
      Object.defineProperty(lazy.prototype, name, {
        value(this: T, ...args: unknown[]) {
          const target = real(this) as Record<string, (...a: unknown[]) => unknown>;
          return target[name]!(...args);
        },
        configurable: true,
        writable: true,
      });
    } else if (descriptor.get) {
      Object.defineProperty(lazy.prototype, name, {
        get(this: T) {
          return (real(this) as Record<string, unknown>)[name];
        },
        configurable: true,
      });
    }
  }
  Object.setPrototypeOf(lazy.prototype, base.prototype);
}

/**
 * Where a request built by a node listener (`abkit/node`) keeps its target from the path on
 * (`/v2/campaigns?mode=simple`): routing reads it instead of scanning the whole URL.
 * A global-registry symbol, so that separately bundled entries agree on it.
 * @internal
 */
export const PATH_AND_QUERY = Symbol.for('abkit.request.pathAndQuery');
