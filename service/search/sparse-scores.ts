/**
 * The candidate pass's scores kept per address touched rather than per address in the index
 * (issue 46): an open-addressing hash table from ordinal to its entry, and per entry the
 * ordinal, the stamp of the last term that reached it and its accumulated score, in the order
 * first touched (the order the dense scratch's `touched` list has, so ties rank alike). Its
 * size follows the addresses a query touches (bounded by the engine's term budgets, about
 * half a million), not the index: a few MB where the dense scratch is 12 bytes per address.
 * A table slot's generation, ordinal and entry number are interleaved, and so are an entry's
 * stamp and score, so a posting costs two cache lines as with the dense scratch. Entries of an
 * earlier query are told apart by the generation, so nothing is cleared between queries.
 */
const INITIAL_SLOTS = 1 << 15;

export class SparseScores {
  /** The ordinals first touched by this query, in order: the first `count`. */
  ords = new Uint32Array(INITIAL_SLOTS >> 1);
  /** Entry i's score (read by `score(i)`; kept beside its stamp). */
  private entries = new ArrayBuffer(4 * INITIAL_SLOTS);
  private stamps = new Uint32Array(this.entries);
  private acc = new Float32Array(this.entries);
  count = 0;
  /** Slot h: [3h] generation, [3h + 1] ordinal, [3h + 2] entry number. */
  private table = new Uint32Array(3 * INITIAL_SLOTS);
  private mask = INITIAL_SLOTS - 1;
  private shift = 32 - 15;
  private gen = 0;

  /** Starts a query: no address touched. */
  begin(): void {
    if (++this.gen === 0xffff_ffff) {
      this.table.fill(0);
      this.gen = 1;
    }
    this.count = 0;
  }

  /** Adds `w` to `ord`'s score unless term `stamp` already reached it (a term counts once, by its first, best word). */
  add(ord: number, stamp: number, w: number): void {
    const { table, gen, mask } = this;
    for (let h = Math.imul(ord, 0x9e3779b1) >>> this.shift; ; h = (h + 1) & mask) {
      const at = 3 * h;
      if (table[at] !== gen) {
        if (this.count >= this.ords.length) {
          this.grow();
          this.add(ord, stamp, w);
          return;
        }
        const i = this.count++;
        table[at] = gen;
        table[at + 1] = ord;
        table[at + 2] = i;
        this.ords[i] = ord;
        this.stamps[2 * i] = stamp;
        this.acc[2 * i + 1] = w;
        return;
      }
      if (table[at + 1] === ord) {
        const e = 2 * table[at + 2]!;
        if (this.stamps[e] !== stamp) {
          this.stamps[e] = stamp;
          this.acc[e + 1] = this.acc[e + 1]! + w;
        }
        return;
      }
    }
  }

  /** Entry i's accumulated score. */
  score(i: number): number {
    return this.acc[2 * i + 1]!;
  }

  /** Adds `w` to entry i's score. */
  lift(i: number, w: number): void {
    this.acc[2 * i + 1] = this.acc[2 * i + 1]! + w;
  }

  /** The scores as the engine's `topK` reads them: entry i's at 2i + 1. */
  get scores(): Float32Array {
    return this.acc;
  }

  /** Bytes held (for the bench). */
  get bytes(): number {
    return this.table.byteLength + this.entries.byteLength + this.ords.byteLength;
  }

  /** Doubles the table (kept at most half full) and the entries, re-inserting this query's. */
  private grow(): void {
    const slots = 2 * (this.mask + 1);
    const ords = new Uint32Array(slots >> 1);
    ords.set(this.ords);
    this.ords = ords;
    const entries = new ArrayBuffer(4 * slots);
    new Uint32Array(entries).set(this.stamps);
    this.entries = entries;
    this.stamps = new Uint32Array(entries);
    this.acc = new Float32Array(entries);
    this.table = new Uint32Array(3 * slots);
    this.mask = slots - 1;
    this.shift--;
    const { table, gen, mask } = this;
    for (let i = 0; i < this.count; i++) {
      let h = Math.imul(this.ords[i]!, 0x9e3779b1) >>> this.shift;
      while (table[3 * h] === gen) h = (h + 1) & mask;
      table[3 * h] = gen;
      table[3 * h + 1] = this.ords[i]!;
      table[3 * h + 2] = i;
    }
  }
}
