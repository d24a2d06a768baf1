/**
 * Header names in lower case, as lazily built requests and responses key their records.
 *
 * @module
 */

/**
 * `name` in lower case. Names come from code, nearly always in lower case already: they are
 * returned as they are after a scan, which costs less than `toLowerCase` on every read.
 * (Header names are ASCII tokens; only ASCII capitals are looked for.)
 * @internal
 */
export function lowerCaseName(name: string): string {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return name.toLowerCase();
  }
  return name;
}
