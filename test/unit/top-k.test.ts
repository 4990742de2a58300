import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { topK } from '../../service/domain/top-k.ts';

describe('topK', () => {
  it('equals sorting everything and taking the first k, for any list and k (ties broken by a unique key)', () => {
    const item = fc.record({ d: fc.integer({ min: 0, max: 50 }), id: fc.integer() });
    fc.assert(fc.property(fc.uniqueArray(item, { selector: (x) => x.id, maxLength: 400 }), fc.integer({ min: 0, max: 120 }), (xs, k) => {
      const cmp = (a: { d: number; id: number }, b: { d: number; id: number }) => a.d - b.d || a.id - b.id;
      expect(topK(xs, k, cmp)).toEqual([...xs].sort(cmp).slice(0, k));
    }), { numRuns: 300 });
  });

  it('leaves its input as it was', () => {
    const xs = Array.from({ length: 100 }, (_, i) => (i * 37) % 100);
    const copy = [...xs];
    expect(topK(xs, 5, (a, b) => a - b)).toEqual([0, 1, 2, 3, 4]);
    expect(xs).toEqual(copy);
  });
});
