/**
 * The candidate pass's scores kept per address touched rather than per address in the index
 * (issue 46): an open-addressing hash table from ordinal to its entry, and per entry the
 * ordinal, the stamp of the last term that reached it and its accumulated score, in the order
 * first touched (the order the dense scratch's `touched` list has, so ties rank alike). Its
 * size follows the addresses a query touches (bounded by the engine's term budgets, about
 * half a million), not the index: a few MB where the dense scratch is 12 bytes per address.
 * Entries of an earlier query are told apart by a generation number, so nothing is cleared
 * between queries.
 */
const INITIAL_SLOTS = 1 << 15;

export class SparseScores {
  /** Entries of this query: first `count` of each. */
  ords = new Uint32Array(INITIAL_SLOTS >> 1);
  stamps = new Uint32Array(INITIAL_SLOTS >> 1);
  scores = new Float32Array(INITIAL_SLOTS >> 1);
  count = 0;
  private keys = new Uint32Array(INITIAL_SLOTS);
  private gens = new Uint32Array(INITIAL_SLOTS);
  private index = new Uint32Array(INITIAL_SLOTS);
  private shift = 32 - 15;
  private gen = 0;

  /** Starts a query: no address touched. */
  begin(): void {
    if (++this.gen === 0xffff_ffff) {
      this.gens.fill(0);
      this.gen = 1;
    }
    this.count = 0;
  }

  /** Adds `w` to `ord`'s score unless term `stamp` already reached it (a term counts once, by its first, best word). */
  add(ord: number, stamp: number, w: number): void {
    const { keys, gens, gen } = this;
    const mask = keys.length - 1;
    for (let h = Math.imul(ord, 0x9e3779b1) >>> this.shift; ; h = (h + 1) & mask) {
      if (gens[h] !== gen) {
        if (this.count >= this.ords.length) {
          this.grow();
          this.add(ord, stamp, w);
          return;
        }
        const i = this.count++;
        gens[h] = gen;
        keys[h] = ord;
        this.index[h] = i;
        this.ords[i] = ord;
        this.stamps[i] = stamp;
        this.scores[i] = w;
        return;
      }
      if (keys[h] === ord) {
        const i = this.index[h]!;
        if (this.stamps[i] !== stamp) {
          this.stamps[i] = stamp;
          this.scores[i] = this.scores[i]! + w;
        }
        return;
      }
    }
  }

  /** Bytes held (for the bench). */
  get bytes(): number {
    return 12 * (this.keys.length + this.ords.length);
  }

  /** Doubles the table (kept at most half full) and the entry arrays, re-inserting this query's entries. */
  private grow(): void {
    const slots = this.keys.length * 2;
    const copy = <T extends Uint32Array | Float32Array>(a: T, C: new (n: number) => T) => {
      const b = new C(slots >> 1);
      b.set(a);
      return b;
    };
    this.ords = copy(this.ords, Uint32Array);
    this.stamps = copy(this.stamps, Uint32Array);
    this.scores = copy(this.scores, Float32Array);
    this.keys = new Uint32Array(slots);
    this.gens = new Uint32Array(slots);
    this.index = new Uint32Array(slots);
    this.shift--;
    const mask = slots - 1;
    for (let i = 0; i < this.count; i++) {
      let h = Math.imul(this.ords[i]!, 0x9e3779b1) >>> this.shift;
      while (this.gens[h] === this.gen) h = (h + 1) & mask;
      this.gens[h] = this.gen;
      this.keys[h] = this.ords[i]!;
      this.index[h] = i;
    }
  }
}
