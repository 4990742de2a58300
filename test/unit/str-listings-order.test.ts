import { describe, expect, it } from 'vitest';
import { listingOrder, roundPosition } from '../../service/domain/str/listings.ts';

describe('listingOrder', () => {
  const ids = ['b', 'a', 'c', 'd', 'e'];
  it('highest first, a listing without the figure last, ties by id', () => {
    expect(listingOrder([10, 30, NaN, 30, 5], ids, true)).toEqual([1, 3, 0, 4, 2]);
  });
  it('lowest first for distance, ties by id, NaN last', () => {
    expect(listingOrder([10, 30, NaN, 10, 5], ids, false)).toEqual([4, 0, 3, 1, 2]);
    expect(listingOrder([NaN, NaN], ['z', 'y'], false)).toEqual([1, 0]);
  });
});

describe('roundPosition', () => {
  it('keeps 3 decimals (about 100 m)', () => {
    expect(roundPosition(51.45678)).toBe(51.457);
    expect(roundPosition(-2.5934)).toBe(-2.593);
  });
});
