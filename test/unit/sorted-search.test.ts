/** The one binary search (schemas/sorted-search.ts), against a linear scan of the same data. */
import { describe, expect, it } from 'vitest';
import { lowerBound, partitionPoint } from '../../schemas/sorted-search.ts';

const linear = <T extends number | string>(a: ArrayLike<T>, x: T) => {
  for (let i = 0; i < a.length; i++) if (!(a[i]! < x)) return i;
  return a.length;
};

describe('sorted search', () => {
  it('lowerBound equals a linear scan on numbers with repeats, below, between and above them, and on an empty array', () => {
    const a = Float64Array.from([1, 3, 3, 3, 7, 10, 10, 42]);
    for (const x of [0, 1, 2, 3, 4, 7, 9, 10, 11, 42, 43]) expect(lowerBound(a, x), String(x)).toBe(linear(a, x));
    expect(lowerBound(new Float64Array(0), 5)).toBe(0);
  });

  it('lowerBound on strings uses JavaScript order (postcodes with a space sort before longer outcodes)', () => {
    const a = ['AB1 0AA', 'AB10 1AA', 'BS1 4AB', 'BS1 4AB', 'ZE3 9ZZ'];
    expect([...a].sort()).toEqual(a);
    for (const x of ['', 'AB1 0AA', 'AB10', 'BS1 4AB', 'BS1 4AC', 'ZZ']) expect(lowerBound(a, x), x).toBe(linear(a, x));
  });

  it('partitionPoint finds where a monotone predicate turns false, n when it never does', () => {
    const n = 1000;
    for (const cut of [0, 1, 499, 999, 1000]) expect(partitionPoint(n, (i) => i < cut)).toBe(cut);
  });
});
