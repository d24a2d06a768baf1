/**
 * A small semantic-version parser and comparator for the SEMVER_* targeting operators.
 * Accepted forms: `1`, `1.2`, `1.2.3`, an optional leading `v`, a `-prerelease` and a
 * `+build` suffix (ignored for precedence, as SemVer 2.0 says). Missing minor or patch
 * count as 0, so `1.2` equals `1.2.0`.
 *
 * @module
 */

/**
 * A parsed version; `pre` holds prerelease identifiers (numbers where numeric).
 *
 * @example
 * ```ts
 * const version: SemVer = { major: 2, minor: 4, patch: 0, pre: ['beta', 3] }; // 'v2.4.0-beta.3'
 * console.log(`${version.major}.${version.minor}.${version.patch}-${version.pre.join('.')}`);
 * ```
 */
export interface SemVer {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly pre: readonly (string | number)[];
}

const SEMVER =
  /^\s*[vV]?(0|[1-9]\d*)(?:\.(0|[1-9]\d*))?(?:\.(0|[1-9]\d*))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?\s*$/;

/**
 * Parses `text` as a version, or returns `undefined` when it is not one.
 *
 * @example
 * ```ts
 * parseSemver('v1.2');       // { major: 1, minor: 2, patch: 0, pre: [] }
 * parseSemver('1.2.3-rc.1'); // { major: 1, minor: 2, patch: 3, pre: ['rc', 1] }
 * parseSemver('latest');     // undefined
 * ```
 */
export function parseSemver(text: string): SemVer | undefined {
  const m = SEMVER.exec(text);
  if (!m) return undefined;
  const pre = m[4] === undefined ? [] : m[4].split('.').map((id) => (/^\d+$/.test(id) ? Number(id) : id));
  return { major: Number(m[1]), minor: Number(m[2] ?? 0), patch: Number(m[3] ?? 0), pre };
}

/**
 * SemVer 2.0 precedence: negative when `a < b`, 0 when equal, positive when `a > b`.
 *
 * @example
 * ```ts
 * compareSemver(parseSemver('1.10.0')!, parseSemver('1.9.3')!) > 0;     // true: 1.10.0 is newer
 * compareSemver(parseSemver('2.0.0-rc.1')!, parseSemver('2.0.0')!) < 0; // true: a prerelease ranks lower
 * ```
 */
export function compareSemver(a: SemVer, b: SemVer): number {
  if (a.major !== b.major) return a.major - b.major;
  if (a.minor !== b.minor) return a.minor - b.minor;
  if (a.patch !== b.patch) return a.patch - b.patch;
  // A version without prerelease ranks above the same version with one.
  if (a.pre.length === 0 || b.pre.length === 0) return b.pre.length - a.pre.length;
  const n = Math.min(a.pre.length, b.pre.length);
  for (let i = 0; i < n; i++) {
    const x = a.pre[i]!;
    const y = b.pre[i]!;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    if (typeof x === 'number') return -1;
    if (typeof y === 'number') return 1;
    return x < y ? -1 : 1;
  }
  return a.pre.length - b.pre.length;
}
