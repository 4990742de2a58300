import { describe, expect, it } from 'vitest';
import { hashKey, Rng, rng } from '../../../etl/synth/prng.ts';

const take = (n: number, f: () => number) => Array.from({ length: n }, f);

describe('seeded PRNG', () => {
  it('same (seed, key) gives the same sequence; another seed or key gives another', () => {
    const a = take(50, () => rng(42, 'sales', 7).u32());
    expect(a).toEqual(take(50, () => rng(42, 'sales', 7).u32()));
    const s1 = rng(42, 'sales', 7);
    const seq1 = take(50, () => s1.u32());
    const s2 = rng(42, 'sales', 7);
    expect(take(50, () => s2.u32())).toEqual(seq1);
    const s3 = rng(43, 'sales', 7);
    expect(take(50, () => s3.u32())).not.toEqual(seq1);
    const s4 = rng(42, 'sales', 8);
    expect(take(50, () => s4.u32())).not.toEqual(seq1);
    const s5 = rng(42, 'epc', 7);
    expect(take(50, () => s5.u32())).not.toEqual(seq1);
  });

  it('keys do not collide by concatenation: ("ab", 1) differs from ("a", "b1")', () => {
    expect(hashKey(['ab', 1])).not.toBe(hashKey(['a', 'b1']));
    expect(hashKey([1, 23])).not.toBe(hashKey([12, 3]));
  });

  it('streams are independent: drawing from one does not move another', () => {
    const a = rng(1, 'x');
    const b = rng(1, 'y');
    const first = b.next();
    for (let i = 0; i < 1000; i++) a.next();
    const b2 = rng(1, 'y');
    expect(b2.next()).toBe(first);
  });

  it('uniform, normal and integer draws have the right moments and ranges', () => {
    const r = rng(2024, 'moments');
    const n = 100_000;
    const u = take(n, () => r.next());
    expect(Math.min(...u)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...u)).toBeLessThan(1);
    expect(Math.abs(u.reduce((a, b) => a + b, 0) / n - 0.5)).toBeLessThan(0.01);
    const z = take(n, () => r.normal());
    const mean = z.reduce((a, b) => a + b, 0) / n;
    const sd = Math.sqrt(z.reduce((a, b) => a + (b - mean) ** 2, 0) / n);
    expect(Math.abs(mean)).toBeLessThan(0.02);
    expect(Math.abs(sd - 1)).toBeLessThan(0.02);
    const ints = take(10_000, () => r.int(3, 5));
    expect(new Set(ints)).toEqual(new Set([3, 4, 5]));
    const pois = take(20_000, () => r.poisson(4));
    expect(Math.abs(pois.reduce((a, b) => a + b, 0) / pois.length - 4)).toBeLessThan(0.1);
    const bin = take(20_000, () => r.binomial(10, 0.3));
    expect(Math.abs(bin.reduce((a, b) => a + b, 0) / bin.length - 3)).toBeLessThan(0.06);
  });

  it('weighted picks follow the weights; pick refuses an empty list', () => {
    const r = rng(5, 'w');
    const counts = { a: 0, b: 0 };
    for (let i = 0; i < 20_000; i++) counts[r.weighted([['a', 1], ['b', 3]] as const)]++;
    expect(counts.b / 20_000).toBeCloseTo(0.75, 1);
    expect(() => r.pick([])).toThrow(/empty/);
  });

  it('hex and digits have the requested length and alphabet', () => {
    const r = rng(9, 'fmt');
    expect(r.hex(32)).toMatch(/^[0-9a-f]{32}$/);
    expect(r.digits(33)).toMatch(/^[1-9]\d{32}$/);
    expect(r.digits(1)).toMatch(/^[1-9]$/);
  });

  it('rng(seed, ...key) is the stream seeded by hashKey of [seed, ...key] with salts 0 to 3 (its one-pass hashing changes nothing)', () => {
    const keys: (string | number)[][] = [[], ['sales', 7], ['unit', 'BS1', 2, 14], ['str', 100_000_123_456], ['é€', -3, 0.5, '']];
    for (const seed of [0, 42, 0xffffffff]) {
      for (const key of keys) {
        const parts = [seed, ...key];
        const want = new Rng(hashKey(parts, 0), hashKey(parts, 1), hashKey(parts, 2), hashKey(parts, 3));
        const got = rng(seed, ...key);
        expect(take(8, () => got.u32()), JSON.stringify(parts)).toEqual(take(8, () => want.u32()));
      }
    }
  });

  it("hex(n) is the stream's u32 values as 8 padded hex digits each, cut to n", () => {
    for (const n of [1, 7, 8, 9, 32, 40]) {
      const a = rng(7, 'hex', n);
      const b = rng(7, 'hex', n);
      let want = '';
      while (want.length < n) want += b.u32().toString(16).padStart(8, '0');
      expect(a.hex(n)).toBe(want.slice(0, n));
      expect(a.u32()).toBe(b.u32());
    }
  });
});
