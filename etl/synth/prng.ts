/**
 * Seeded pseudo-random numbers for the synthetic region. Never Math.random: every value
 * the generator writes must follow from (seed, entity) alone, so that the same seed gives
 * byte-identical files and adding a new source or entity does not shift any other stream.
 *
 * sfc32 (Chris Doty-Humphrey's small fast chaotic PRNG, 128-bit state) seeded through a
 * 32-bit string/number hash (murmur3-style mixing) of the stream key.
 */

/** murmur3 finaliser: a bijective avalanche on 32-bit integers. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hashes a key (seed and entity parts) to a 32-bit value; `salt` gives independent lanes. */
export function hashKey(parts: readonly (string | number)[], salt = 0): number {
  let h = (0x9e3779b9 ^ Math.imul(salt + 1, 0x27d4eb2f)) >>> 0;
  for (const p of parts) {
    const s = typeof p === 'number' ? `#${p}` : `$${p}`;
    for (let i = 0; i < s.length; i++) {
      h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
      h = (h << 13) | (h >>> 19);
    }
    h = fmix32(h ^ 0x5bd1e995);
  }
  return fmix32(h);
}

const HEX_BYTE = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** A deterministic random stream. Construct with `rng(seed, ...entity key)`. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spareNormal: number | undefined;

  constructor(a: number, b: number, c: number, d: number) {
    this.a = a >>> 0;
    this.b = b >>> 0;
    this.c = c >>> 0;
    this.d = d >>> 0;
    // Discard the first outputs: sfc32's state needs a few rounds to decorrelate from the seed.
    for (let i = 0; i < 12; i++) this.u32();
  }

  /** Uniform 32-bit unsigned integer. */
  u32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1) with 53 bits of precision. */
  next(): number {
    const hi = this.u32() >>> 5;
    const lo = this.u32() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Uniform in [lo, hi). */
  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** Uniform integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Standard normal (Box–Muller, the second value kept for the next call). */
  normal(): number {
    if (this.spareNormal !== undefined) {
      const s = this.spareNormal;
      this.spareNormal = undefined;
      return s;
    }
    let u = 0;
    while (u === 0) u = this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spareNormal = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  /** Normal with mean and standard deviation. */
  gauss(mean: number, sd: number): number {
    return mean + sd * this.normal();
  }

  /** Poisson count (Knuth for small means, normal approximation above 60). */
  poisson(mean: number): number {
    if (mean <= 0) return 0;
    if (mean > 60) return Math.max(0, Math.round(this.gauss(mean, Math.sqrt(mean))));
    const limit = Math.exp(-mean);
    let k = 0;
    let p = this.next();
    while (p > limit) {
      k++;
      p *= this.next();
    }
    return k;
  }

  /** Binomial count (exact for small n, normal approximation for large n). */
  binomial(n: number, p: number): number {
    if (n <= 0 || p <= 0) return 0;
    if (p >= 1) return n;
    if (n > 200) {
      const m = n * p;
      return Math.min(n, Math.max(0, Math.round(this.gauss(m, Math.sqrt(m * (1 - p))))));
    }
    let k = 0;
    for (let i = 0; i < n; i++) if (this.next() < p) k++;
    return k;
  }

  /** One element, uniformly. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** One key of a weight table, with probability proportional to its weight. */
  weighted<K extends string | number>(table: readonly (readonly [K, number])[]): K {
    let total = 0;
    for (const [, w] of table) total += w;
    let x = this.next() * total;
    for (const [k, w] of table) {
      x -= w;
      if (x < 0) return k;
    }
    return table[table.length - 1]![0];
  }

  /** Lower-case hex string of n characters. */
  hex(n: number): string {
    let s = '';
    while (s.length < n) {
      // toString(16).padStart(8, '0') through a byte table (GUIDs and keys are hot).
      const x = this.u32();
      s += HEX_BYTE[x >>> 24]! + HEX_BYTE[(x >>> 16) & 255]! + HEX_BYTE[(x >>> 8) & 255]! + HEX_BYTE[x & 255]!;
    }
    return s.slice(0, n);
  }

  /** String of n decimal digits (the first non-zero). */
  digits(n: number): string {
    let s = String(this.int(1, 9));
    while (s.length < n) s += String(this.u32() % 1_000_000).padStart(6, '0');
    return s.slice(0, n);
  }
}

/** An independent stream for an entity: same (seed, key) → same sequence, whatever else runs. */
export function rng(seed: number, ...key: (string | number)[]): Rng {
  // hashKey(parts, salt) for salts 0…3 in one pass over the key's characters (the generator
  // opens several streams per home, so this is hot); tested equal to four hashKey calls.
  let h0 = (0x9e3779b9 ^ Math.imul(1, 0x27d4eb2f)) >>> 0;
  let h1 = (0x9e3779b9 ^ Math.imul(2, 0x27d4eb2f)) >>> 0;
  let h2 = (0x9e3779b9 ^ Math.imul(3, 0x27d4eb2f)) >>> 0;
  let h3 = (0x9e3779b9 ^ Math.imul(4, 0x27d4eb2f)) >>> 0;
  for (let k = -1; k < key.length; k++) {
    const p = k < 0 ? seed : key[k]!;
    const s = typeof p === 'number' ? `#${p}` : `$${p}`;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      h0 = Math.imul(h0 ^ c, 0x01000193) >>> 0;
      h0 = (h0 << 13) | (h0 >>> 19);
      h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
      h1 = (h1 << 13) | (h1 >>> 19);
      h2 = Math.imul(h2 ^ c, 0x01000193) >>> 0;
      h2 = (h2 << 13) | (h2 >>> 19);
      h3 = Math.imul(h3 ^ c, 0x01000193) >>> 0;
      h3 = (h3 << 13) | (h3 >>> 19);
    }
    h0 = fmix32(h0 ^ 0x5bd1e995);
    h1 = fmix32(h1 ^ 0x5bd1e995);
    h2 = fmix32(h2 ^ 0x5bd1e995);
    h3 = fmix32(h3 ^ 0x5bd1e995);
  }
  return new Rng(fmix32(h0), fmix32(h1), fmix32(h2), fmix32(h3));
}
