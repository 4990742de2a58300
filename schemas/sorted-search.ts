/**
 * Binary search over sorted data, the one copy both sides use (UPRN-sorted record files and
 * tables, postcode-sorted directories, sorted key lists).
 */

/**
 * The first index in 0..n at which `before(i)` is false, for a `before` that holds for a
 * prefix of 0..n−1 and then never (a sorted sequence's "is index i before the key?"); n when
 * it holds everywhere.
 */
export function partitionPoint(n: number, before: (i: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index whose value is ≥ `x` in an ascending array (JavaScript's `<`: numbers, or strings by code unit). */
export function lowerBound<T extends number | string>(sorted: ArrayLike<T>, x: T): number {
  return partitionPoint(sorted.length, (i) => sorted[i]! < x);
}
