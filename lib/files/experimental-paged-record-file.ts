import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { LRUCache } from 'lru-cache';
import { RECORD_FILE_MAGIC, type ColumnSpec, type RecordValue } from './record-file-format.ts';
import { SECTION_TYPES, type SectionType } from './sections-file.ts';

/**
 * EXPERIMENTAL (issue 46, ADR 0015): a record file (`record-file-format.ts`) read where it lies,
 * by positioned reads of fixed-size blocks through a bounded LRU block cache, instead of read
 * whole into the heap. Not wired into the service: a prototype to measure what paging costs.
 *
 * What it holds: the header (columns, the dict columns' dictionaries), the first UPRN of every
 * block's worth of rows (a sparse index: 8 bytes per `blockBytes / 8` rows, so a lookup reads
 * one run of UPRNs), and at most `cacheBytes` of blocks. The operating system's page cache
 * holds the file once for every process that reads it.
 *
 * Reads are synchronous (`readSync` at an offset): a miss on a page the kernel has cached costs
 * a system call and a copy, a miss on disk blocks the event loop for that read. The file is
 * read through the descriptor opened by `open`, so a file replaced by a rename keeps answering
 * from the file that was opened; a file truncated or rewritten in place gives short reads,
 * which throw rather than answer from partial data.
 */
export interface PagedRecordFileOptions {
  /** Bytes the block cache may hold (default 16 MiB); at least one block is kept. */
  cacheBytes?: number;
  /** Bytes per block, a multiple of 8 (default 4096, the page size). */
  blockBytes?: number;
}

interface Section {
  /** Absolute byte offset of the section in the file. */
  start: number;
  length: number;
  type: SectionType;
}

interface Meta {
  n: number;
  columns: ColumnSpec[];
  dictionaries: Record<string, string[]>;
}

const pad8 = (n: number) => (8 - (n % 8)) % 8;
const decoder = new TextDecoder();

export class PagedRecordFile {
  readonly n: number;
  readonly columns: readonly ColumnSpec[];
  /** Block reads served from the cache, and read from the file. */
  readonly stats = { hits: 0, misses: 0 };
  private readonly cache: LRUCache<number, Buffer>;
  /** Evicted full-size blocks, reused for the next reads: a miss allocates nothing once the cache is full. */
  private readonly spare: Buffer[] = [];
  private readonly readers: Array<[string, (i: number) => RecordValue]>;
  /** UPRN of row k × rowsPerRun (the sparse index). */
  private readonly firsts: Float64Array;
  private readonly rowsPerRun: number;
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly fd: number,
    private readonly size: number,
    private readonly blockBytes: number,
    cacheBytes: number,
    meta: Meta,
    private readonly uprn: Section,
    sections: Record<string, Section>,
  ) {
    this.n = meta.n;
    this.columns = meta.columns;
    this.cache = new LRUCache<number, Buffer>({
      max: Math.max(1, Math.floor(cacheBytes / blockBytes)),
      // Safe to reuse: no caller keeps a block past its next read (values are decoded at once).
      dispose: (b, _k, reason) => {
        if (reason === 'evict' && b.length === blockBytes) this.spare.push(b);
      },
    });
    this.rowsPerRun = blockBytes / 8;
    this.firsts = this.sparseIndex();
    const sec = (name: string): Section => {
      const s = sections[name];
      if (!s) throw new Error(`${path} has no section ${name}`);
      return s;
    };
    this.readers = this.columns.map((c): [string, (i: number) => RecordValue] => {
      if (c.kind === 'num' || c.kind === 'small' || c.kind === 'bool' || c.kind === 'dict') {
        const s = sec(c.name);
        const read = this.elementReader(s);
        if (c.kind === 'bool') return [c.name, (i) => {
          const v = read(i);
          return v === 2 ? null : v === 1;
        }];
        if (c.kind === 'dict') {
          const dict = meta.dictionaries[c.name] ?? [];
          return [c.name, (i) => {
            const code = read(i);
            return code === 0 ? null : dict[code - 1]!;
          }];
        }
        return [c.name, (i) => {
          const v = read(i);
          return Number.isNaN(v) ? null : v;
        }];
      }
      const off = this.elementReader(sec(`${c.name}.off`));
      const bytes = sec(`${c.name}.bytes`);
      const nulls = this.elementReader(sec(`${c.name}.null`));
      return [c.name, (i) => (nulls(i) === 1 ? null : decoder.decode(this.bytesAt(bytes.start + off(i), off(i + 1) - off(i))))];
    });
  }

  /** Opens `path` and reads its header; a file of another kind, or shorter than its header says, throws naming the path. */
  static open(path: string, opts: PagedRecordFileOptions = {}): PagedRecordFile {
    const blockBytes = opts.blockBytes ?? 4096;
    if (!Number.isInteger(blockBytes) || blockBytes < 8 || blockBytes % 8 !== 0) throw new Error(`blockBytes must be a positive multiple of 8, not ${blockBytes}`);
    const fd = openSync(path, 'r');
    try {
      const size = fstatSync(fd).size;
      if (size < 16) throw new Error(`${path} is not a record file (${size} bytes)`);
      const head = readExactly(fd, path, 0, 16, size);
      if (head.toString('latin1', 0, 8) !== RECORD_FILE_MAGIC) throw new Error(`${path} is not a record file (${RECORD_FILE_MAGIC})`);
      const hlen = head.readUInt32LE(8);
      if (16 + hlen > size) throw new Error(`${path} is truncated (header)`);
      const { meta, layout } = JSON.parse(readExactly(fd, path, 16, hlen, size).toString('utf8')) as { meta: Meta; layout: Record<string, [number, number, SectionType]> };
      const base = 16 + hlen + pad8(16 + hlen);
      const sections: Record<string, Section> = {};
      for (const [name, [off, length, type]] of Object.entries(layout)) {
        const C = SECTION_TYPES[type];
        if (!C) throw new Error(`${path}: section ${name} has unknown type ${type}`);
        const end = base + off + length * C.BYTES_PER_ELEMENT;
        if (end > size) throw new Error(`${path} is truncated (${name} ends at byte ${end}, the file has ${size})`);
        sections[name] = { start: base + off, length, type };
      }
      const uprn = sections.uprn;
      if (!uprn || uprn.type !== 'f64' || uprn.length !== meta.n) throw new Error(`${path} has no uprn section of its ${meta.n} rows`);
      return new PagedRecordFile(path, fd, size, blockBytes, opts.cacheBytes ?? 16 * 1048576, meta, uprn, sections);
    } catch (e) {
      closeSync(fd);
      throw e;
    }
  }

  /** The row of `uprn` as column name → value (uprn a number), or undefined: as `RecordFile.get`. */
  get(uprn: number): Record<string, RecordValue> | undefined {
    const i = this.rowOf(uprn);
    return i === undefined ? undefined : this.rowAt(i);
  }

  /** Row `i` (0 ≤ i < n, in UPRN order); a row past the end throws a RangeError. */
  rowAt(i: number): Record<string, RecordValue> {
    if (!Number.isInteger(i) || i < 0 || i >= this.n) throw new RangeError(`row ${i} is past the end of ${this.path} (${this.n} rows)`);
    const row: Record<string, RecordValue> = { uprn: this.f64(this.uprn.start + i * 8) };
    for (const [name, read] of this.readers) row[name] = read(i);
    return row;
  }

  /** Bytes of blocks the cache holds now (bounded by `cacheBytes`, at least one block). */
  cachedBytes(): number {
    let bytes = 0;
    for (const b of this.cache.values()) bytes += b.length;
    return bytes;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.cache.clear();
    closeSync(this.fd);
  }

  /** The row index of `uprn`: the sparse index names its run, a binary search in the run finds it. */
  private rowOf(uprn: number): number | undefined {
    const f = this.firsts;
    let lo = 0;
    let hi = f.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (f[mid]! <= uprn) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0) return undefined;
    let a = (lo - 1) * this.rowsPerRun;
    let b = Math.min(this.n, a + this.rowsPerRun);
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (this.f64(this.uprn.start + mid * 8) < uprn) a = mid + 1;
      else b = mid;
    }
    return a < this.n && this.f64(this.uprn.start + a * 8) === uprn ? a : undefined;
  }

  /** The first UPRN of every run of rows, read through a 1 MiB buffer (the UPRN section is not kept). */
  private sparseIndex(): Float64Array {
    const runs = Math.ceil(this.n / this.rowsPerRun);
    const firsts = new Float64Array(runs);
    const chunkRows = Math.max(this.rowsPerRun, Math.floor(1048576 / 8 / this.rowsPerRun) * this.rowsPerRun);
    for (let row = 0; row < this.n; row += chunkRows) {
      const rows = Math.min(chunkRows, this.n - row);
      const buf = readExactly(this.fd, this.path, this.uprn.start + row * 8, rows * 8, this.size);
      for (let r = 0; r < rows; r += this.rowsPerRun) firsts[(row + r) / this.rowsPerRun] = buf.readDoubleLE(r * 8);
    }
    for (let k = 1; k < runs; k++) if (!(firsts[k]! > firsts[k - 1]!)) throw new Error(`${this.path}: uprns are not sorted (run ${k})`);
    return firsts;
  }

  /** A reader of element `i` of a fixed-width section (a number; bool and dict codes too). */
  private elementReader(s: Section): (i: number) => number {
    const { start, type } = s;
    if (type === 'f64') return (i) => this.f64(start + i * 8);
    if (type === 'f32') return (i) => this.block(start + i * 4, (b, at) => b.readFloatLE(at));
    if (type === 'u32') return (i) => this.block(start + i * 4, (b, at) => b.readUInt32LE(at));
    if (type === 'u16') return (i) => this.block(start + i * 2, (b, at) => b.readUInt16LE(at));
    return (i) => this.block(start + i, (b, at) => b[at]!);
  }

  private f64(pos: number): number {
    return this.block(pos, (b, at) => b.readDoubleLE(at));
  }

  /**
   * Reads an element at file offset `pos` from its block. Sections start 8-aligned and blocks
   * are a multiple of 8 bytes, so no element straddles two blocks.
   */
  private block<T>(pos: number, read: (b: Buffer, at: number) => T): T {
    const k = Math.floor(pos / this.blockBytes);
    return read(this.load(k), pos - k * this.blockBytes);
  }

  /** `len` bytes from `pos`, across blocks when they straddle one. */
  private bytesAt(pos: number, len: number): Uint8Array {
    const B = this.blockBytes;
    const k = Math.floor(pos / B);
    const at = pos - k * B;
    if (at + len <= B) return this.load(k).subarray(at, at + len);
    const out = Buffer.allocUnsafe(len);
    for (let done = 0; done < len;) {
      const p = pos + done;
      const kb = Math.floor(p / B);
      const from = p - kb * B;
      const piece = this.load(kb).subarray(from, Math.min(B, from + len - done));
      out.set(piece, done);
      done += piece.length;
    }
    return out;
  }

  /** Block `k`, from the cache or read from the file (the last block may be short). */
  private load(k: number): Buffer {
    const cached = this.cache.get(k);
    if (cached) {
      this.stats.hits++;
      return cached;
    }
    if (this.closed) throw new Error(`${this.path}: the paged record file is closed`);
    this.stats.misses++;
    const start = k * this.blockBytes;
    const want = Math.min(this.blockBytes, this.size - start);
    if (want <= 0) throw new RangeError(`${this.path}: read past the end (block at byte ${start}, the file has ${this.size})`);
    const b = readExactly(this.fd, this.path, start, want, this.size, want === this.blockBytes ? this.spare.pop() : undefined);
    this.cache.set(k, b);
    return b;
  }
}

/** Exactly `len` bytes at `pos` (into `into` when given, of that length); fewer (the file shrank since it was opened) throws. */
function readExactly(fd: number, path: string, pos: number, len: number, size: number, into?: Buffer): Buffer {
  const buf = into ?? Buffer.allocUnsafeSlow(len);
  let got = 0;
  while (got < len) {
    const r = readSync(fd, buf, got, len - got, pos + got);
    if (r === 0) break;
    got += r;
  }
  if (got < len) {
    throw new Error(`${path}: read ${got} of ${len} bytes at byte ${pos}: the file is shorter than the ${size} bytes it had when opened (truncated or rewritten in place)`);
  }
  return buf;
}
