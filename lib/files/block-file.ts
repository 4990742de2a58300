import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { LRUCache } from 'lru-cache';

/**
 * Files read where they lie (issue 46, ADR 0015): positioned reads of fixed-size blocks through
 * one bounded cache per process, so a process's memory is its cache and the operating system's
 * page cache holds each file once for every worker.
 *
 * The cache is an arena: `slots` blocks in one ArrayBuffer, reused as blocks are evicted, so a
 * miss allocates nothing and the cache never holds more than its budget (the prototype that
 * allocated a buffer per miss held four to five times its budget in garbage; ADR 0015).
 *
 * Safety, without mmap's SIGBUS: a file is read through the descriptor `open` returned, so a file
 * renamed over the opened one keeps answering from the opened one; a file truncated since it was
 * opened gives a short read, which throws a `BlockFileError` instead of answering from partial
 * data; a read past the end throws one too.
 */
export class BlockFileError extends Error {
  override name = 'BlockFileError';
}

export interface BlockCacheStats {
  hits: number;
  misses: number;
}

/** The blocks of every `BlockFile` opened on it, at most `bytes` of them (at least two blocks). */
export class BlockCache {
  readonly blockBytes: number;
  readonly slots: number;
  readonly stats: BlockCacheStats = { hits: 0, misses: 0 };
  private readonly arena: Buffer;
  /** Block key (file id × 2^32 + block number) → slot. */
  private readonly lru: LRUCache<number, number>;
  private readonly free: number[] = [];
  private nextFile = 1;
  /** The block key each slot holds (−1: free): lets a reader check a slot it remembered is still that block (`BlockFile.u32s`). */
  readonly slotKey: Float64Array;

  constructor(bytes: number, blockBytes = 4096) {
    if (!Number.isInteger(blockBytes) || blockBytes < 64 || blockBytes % 8 !== 0) throw new RangeError(`blockBytes must be a multiple of 8 of at least 64, not ${blockBytes}`);
    this.blockBytes = blockBytes;
    this.slots = Math.max(2, Math.floor(bytes / blockBytes));
    this.arena = Buffer.allocUnsafeSlow(this.slots * blockBytes);
    this.lru = new LRUCache<number, number>({ max: this.slots });
    for (let s = this.slots - 1; s >= 0; s--) this.free.push(s);
    this.slotKey = new Float64Array(this.slots).fill(-1);
  }

  get bytes(): number {
    return this.arena.length;
  }

  /** A new file's id (keys its blocks). */
  fileId(): number {
    if (this.nextFile >= 2 ** 20) throw new RangeError('too many files opened on one block cache');
    return this.nextFile++;
  }

  /**
   * Block `block` of a file, as a view into the arena valid until the next miss on this cache:
   * decode from it at once. `fill` reads the block into the view it is given and returns the
   * number of bytes it read.
   */
  get(file: number, block: number, fill: (into: Buffer) => number): Buffer {
    const key = file * 2 ** 32 + block;
    const hit = this.lru.get(key);
    if (hit !== undefined) {
      this.stats.hits++;
      return this.slot(hit);
    }
    return this.miss(key, fill);
  }

  /**
   * The arena slot holding block `block` of a file (read in with `fill` on a miss), for readers
   * that copy out of `arena` without a view per read (`BlockFile.u32s`). A slot of fewer than
   * `blockBytes` bytes (a file's last block) is not marked: the caller bounds its reads.
   */
  slotOf(file: number, block: number, fill: (into: Buffer) => number): number {
    const key = file * 2 ** 32 + block;
    const hit = this.lru.get(key);
    if (hit !== undefined) {
      this.stats.hits++;
      return hit;
    }
    this.miss(key, fill);
    return this.lru.peek(key)!;
  }

  /** The arena as 32-bit words (slot s's word i at s · blockBytes / 4 + i). */
  get arena32(): Uint32Array {
    return (this.arenaWords ??= new Uint32Array(this.arena.buffer, this.arena.byteOffset, this.arena.length >>> 2));
  }

  private arenaWords: Uint32Array | undefined;

  private miss(key: number, fill: (into: Buffer) => number): Buffer {
    this.stats.misses++;
    const slot = this.free.pop() ?? this.lru.pop();
    if (slot === undefined) throw new Error('block cache has no slot'); // unreachable: slots ≥ 2
    const view = this.slot(slot);
    let n: number;
    this.slotKey[slot] = -1;
    try {
      n = fill(view);
    } catch (e) {
      this.free.push(slot);
      throw e;
    }
    this.lru.set(key, slot);
    this.slotKey[slot] = key;
    return n === this.blockBytes ? view : view.subarray(0, n);
  }

  /** Forgets a closed file's blocks (their slots are reused). */
  drop(file: number): void {
    for (const [key, slot] of this.lru.entries()) {
      if (Math.floor(key / 2 ** 32) === file) {
        this.lru.delete(key);
        this.slotKey[slot] = -1;
        this.free.push(slot);
      }
    }
  }

  private slot(s: number): Buffer {
    return this.arena.subarray(s * this.blockBytes, (s + 1) * this.blockBytes);
  }
}

/** Blocks of a file remembered by `BlockFile.slotFor` (direct-mapped by block number). */
const MEMO = 64;

/** One file opened for positioned reads through a `BlockCache`. */
export class BlockFile {
  readonly size: number;
  private readonly id: number;
  private closed = false;

  private constructor(readonly path: string, private readonly fd: number, private readonly cache: BlockCache) {
    this.size = fstatSync(fd).size;
    this.id = cache.fileId();
  }

  static open(path: string, cache: BlockCache): BlockFile {
    const fd = openSync(path, 'r');
    try {
      return new BlockFile(path, fd, cache);
    } catch (e) {
      closeSync(fd);
      throw e;
    }
  }

  /**
   * `length` bytes at `offset`, as a view valid until the next read through the cache (copied
   * into a new buffer when they straddle blocks or are longer than one): decode at once.
   */
  view(offset: number, length: number): Buffer {
    this.check(offset, length);
    const B = this.cache.blockBytes;
    const k = Math.floor(offset / B);
    const at = offset - k * B;
    if (at + length <= B) return this.block(k).subarray(at, at + length);
    return this.copy(offset, length);
  }

  /** `length` bytes at `offset` in a new buffer the caller owns; long runs are read directly, not through the cache. */
  copy(offset: number, length: number): Buffer {
    this.check(offset, length);
    const out = Buffer.allocUnsafe(length);
    const B = this.cache.blockBytes;
    if (length >= 4 * B) {
      this.readExactly(out, offset, length);
      return out;
    }
    for (let done = 0; done < length;) {
      const p = offset + done;
      const k = Math.floor(p / B);
      const from = p - k * B;
      const piece = this.block(k);
      const n = Math.min(piece.length - from, length - done);
      piece.copy(out, done, from, from + n);
      done += n;
    }
    return out;
  }

  /**
   * `count` little-endian 32-bit words at `offset` (a multiple of 4) into `out` from `outAt`,
   * copied out of the cache's arena without a view per block; a run of four blocks or more is
   * read directly into `out`, bypassing the cache (as `copy` does).
   */
  u32s(offset: number, count: number, out: Uint32Array, outAt = 0): void {
    this.check(offset, 4 * count);
    if (offset % 4 !== 0) throw new BlockFileError(`${this.path}: 32-bit words read at byte ${offset}, not a multiple of 4`);
    if (outAt + count > out.length) throw new RangeError(`${count} words do not fit at ${outAt} of ${out.length}`);
    const B = this.cache.blockBytes;
    if (4 * count >= 4 * B) {
      this.readExactly(Buffer.from(out.buffer, out.byteOffset + 4 * outAt, 4 * count), offset, 4 * count);
      return;
    }
    const arena = this.cache.arena32;
    const wordsPerBlock = B >>> 2;
    for (let done = 0; done < count;) {
      const p = offset + 4 * done;
      const k = Math.floor(p / B);
      const slot = this.slotFor(k);
      const from = slot * wordsPerBlock + ((p - k * B) >>> 2);
      const n = Math.min(wordsPerBlock - ((p - k * B) >>> 2), count - done);
      for (let i = 0; i < n; i++) out[outAt + done + i] = arena[from + i]!;
      done += n;
    }
  }

  u8(offset: number): number {
    return this.view(offset, 1)[0]!;
  }

  u16(offset: number): number {
    return this.view(offset, 2).readUInt16LE(0);
  }

  u32(offset: number): number {
    return this.view(offset, 4).readUInt32LE(0);
  }

  f64(offset: number): number {
    return this.view(offset, 8).readDoubleLE(0);
  }

  utf8(offset: number, length: number): string {
    return length === 0 ? '' : this.view(offset, length).toString('utf8');
  }

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.cache.drop(this.id);
    closeSync(this.fd);
  }

  private check(offset: number, length: number): void {
    if (this.closed) throw new BlockFileError(`${this.path} is closed`);
    if (!Number.isInteger(offset) || !Number.isInteger(length) || offset < 0 || length < 0 || offset + length > this.size) {
      throw new BlockFileError(`${this.path}: read of ${length} bytes at byte ${offset} is past the end (the file has ${this.size})`);
    }
  }

  /**
   * The slot of block k: from a small direct-mapped memo of this file's recent blocks when the
   * slot still holds it (checked against `slotKey`, so an evicted and reused slot is never
   * read), else through the cache. A memo hit does not refresh the block's place in the LRU:
   * a block read only through the memo may be evicted and read again, never read wrong.
   */
  private slotFor(k: number): number {
    const m = k & (MEMO - 1);
    const slot = this.memoSlot[m]!;
    if (this.memoBlock[m] === k && this.cache.slotKey[slot] === this.id * 2 ** 32 + k) {
      this.cache.stats.hits++;
      return slot;
    }
    const s = this.cache.slotOf(this.id, k, (into) => this.fillBlock(k, into));
    this.memoBlock[m] = k;
    this.memoSlot[m] = s;
    return s;
  }

  private readonly memoBlock = new Float64Array(MEMO).fill(-1);
  private readonly memoSlot = new Uint32Array(MEMO);

  private block(k: number): Buffer {
    return this.cache.get(this.id, k, (into) => this.fillBlock(k, into));
  }

  private fillBlock(k: number, into: Buffer): number {
    const start = k * this.cache.blockBytes;
    const want = Math.min(into.length, this.size - start);
    this.readExactly(into, start, want);
    return want;
  }

  /** Exactly `length` bytes at `offset` into `into`; fewer (the file shrank since it was opened) throws. */
  private readExactly(into: Buffer, offset: number, length: number): void {
    let got = 0;
    while (got < length) {
      const r = readSync(this.fd, into, got, length - got, offset + got);
      if (r === 0) break;
      got += r;
    }
    if (got < length) {
      throw new BlockFileError(`${this.path}: read ${got} of ${length} bytes at byte ${offset}: the file is shorter than the ${this.size} bytes it had when opened (truncated or rewritten in place)`);
    }
  }
}
