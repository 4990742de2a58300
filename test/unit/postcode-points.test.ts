import { describe, expect, it } from 'vitest';
import { PostcodePoints } from '../../service/valuers/postcode-points.ts';

describe('PostcodePoints', () => {
  it('finds every postcode of a sorted table and nothing else', () => {
    const pcs = ['BS1 4AB', 'BS10 1AA', 'CF24 1LP', 'EC1A 2BD', 'W1T 4PQ', 'W2 1AA'].map((p) => p.padEnd(8)).sort();
    const t = PostcodePoints.fromSorted(pcs, pcs.map((_, i) => 50 + i), pcs.map((_, i) => -i));
    pcs.forEach((p, i) => expect(t.get(p.trim())).toEqual({ lat: 50 + i, lng: -i }));
    for (const miss of ['BS1 4AA', 'BS1', 'ZZ9 9ZZ', 'A', 'W1T 4PQX1']) expect(t.get(miss)).toBeUndefined();
  });
});
