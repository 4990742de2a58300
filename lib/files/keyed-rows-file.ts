import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { partitionPoint } from '../../schemas/sorted-search.ts';
import { BlockFile, BlockFileError, type BlockCache } from './block-file.ts';

/**
 * A table looked up by key and read where it lies (issue 46, ADR 0015): rows sorted by key,
 * each row's columns together, packed into pages of `PAGE` bytes, so a lookup reads one page
 * (two or three when a key's rows run on) through the process's `BlockCache` instead of the
 * table living in the heap. The heap holds only the page directory: each page's first key
 * and where it lies, about 20 bytes per page (5 MB for a gigabyte of rows).
 *
 * Layout: pages from byte 0, each `[u32 rows][u32 row offset × rows][rows]`, padded to a
 * multiple of `PAGE` (a row longer than a page gets a page run of its own); then the directory
 * (f64 offset, u32 length and the first key per page); then the meta (JSON) and a trailer:
 * u32 directory bytes, u32 meta bytes, 8-byte magic. A row is `[key][null bits][values]`:
 * a `num` an f64, a `small` an f32 (small integers, flags: the writer refuses a value an f32
 * does not hold exactly), a `bool` one byte, a `text` a varint length and UTF-8, a `dict` a
 * varint code into the column's dictionary (in the meta, so in the heap: for columns of few
 * distinct values, a type or a rating, not a postcode); a null takes no bytes.
 *
 * Keys are numbers (a UPRN) or strings (a postcode, an area key) compared with JavaScript's `<`
 * (code units: DuckDB's byte order for ASCII); the writer refuses rows out of that order.
 */
export const KEYED_ROWS_MAGIC = 'PIKROW01';
export const PAGE = 4096;

export type KeyKind = 'num' | 'text';
export type ValueKind = 'num' | 'small' | 'bool' | 'text' | 'dict';
export type Key = number | string;
export type Value = number | string | boolean | null;

export interface KeyedRowsMeta {
  key: { name: string; kind: KeyKind };
  columns: Array<{ name: string; kind: ValueKind }>;
  /** Whether a key has at most one row (the writer checks it). */
  unique: boolean;
  rows: number;
  pages: number;
  /** Anything the writer's caller wants kept beside the rows (a source's as-of, …). */
  extra?: Record<string, unknown>;
  /** Each `dict` column's values, in code order (written when the file has a dict column). */
  dictionaries?: Record<string, string[]>;
}

const TRAILER = 16;
const SCAN_BYTES = 1 << 20;
const OUT_BYTES = 1 << 20;
const encoder = new TextEncoder();

/**
 * Writes a keyed-rows file from rows given in key order, holding one page at a time. `finish`
 * writes the directory and trailer and fsyncs; a writer abandoned before `finish` leaves a file
 * no reader opens (no trailer), and `discard` closes it.
 */
export class KeyedRowsWriter {
  private readonly fd: number;
  private offset = 0;
  private rows = 0;
  private last: Key | undefined;
  /** The page being filled: its rows' bytes one after another, and where each starts. */
  private body: Buffer = Buffer.allocUnsafe(PAGE);
  private bodyBytes = 0;
  private readonly rowStarts: number[] = [];
  /** One row being encoded (grown for a long row), so a row costs no allocation. */
  private row: Buffer = Buffer.allocUnsafe(PAGE);
  /** Pages written through one buffer, a write call per megabyte rather than per page. */
  private readonly out = Buffer.allocUnsafe(OUT_BYTES);
  private outBytes = 0;
  private readonly dirOffsets: number[] = [];
  private readonly dirLengths: number[] = [];
  private readonly dirKeys: Key[] = [];
  private pageKey: Key | undefined;
  private closed = false;
  /** Each dict column's values → code, in first-seen order. */
  private readonly dicts = new Map<string, Map<string, number>>();

  constructor(
    readonly path: string,
    private readonly meta: Pick<KeyedRowsMeta, 'key' | 'columns' | 'unique' | 'extra'>,
  ) {
    this.fd = openSync(path, 'w');
    for (const c of meta.columns) if (c.kind === 'dict') this.dicts.set(c.name, new Map());
  }

  /** One row: its key and its values in `meta.columns` order. */
  add(key: Key, values: readonly Value[]): void {
    if (this.closed) throw new Error(`${this.path}: the writer is closed`);
    const kk = this.meta.key.kind;
    if (kk === 'num' ? typeof key !== 'number' || Number.isNaN(key) : typeof key !== 'string') throw new TypeError(`${this.path}: key ${String(key)} is not a ${kk}`);
    if (this.last !== undefined && (key < this.last || (this.meta.unique && key === this.last))) {
      throw new Error(`${this.path}: rows must be in ${this.meta.unique ? 'strictly ' : ''}ascending key order (${String(key)} after ${String(this.last)}, row ${this.rows})`);
    }
    if (values.length !== this.meta.columns.length) throw new Error(`${this.path}: row ${this.rows} has ${values.length} values, not ${this.meta.columns.length}`);
    const len = this.encode(key, values);
    const n = this.rowStarts.length;
    if (n > 0 && 4 + 4 * (n + 1) + this.bodyBytes + len > PAGE) this.flush();
    if (this.rowStarts.length === 0) this.pageKey = key;
    if (this.bodyBytes + len > this.body.length) this.body = grow(this.body, this.bodyBytes, this.bodyBytes + len);
    this.rowStarts.push(this.bodyBytes);
    this.row.copy(this.body, this.bodyBytes, 0, len);
    this.bodyBytes += len;
    this.last = key;
    this.rows++;
  }

  /** Writes the last page, the directory and the trailer; returns the rows and the file's bytes. */
  finish(): { rows: number; pages: number; bytes: number } {
    if (this.closed) throw new Error(`${this.path}: the writer is closed`);
    try {
      if (this.rowStarts.length > 0) this.flush();
      const pages = this.dirOffsets.length;
      const keys = this.meta.key.kind === 'num' ? Buffer.from(Float64Array.from(this.dirKeys as number[]).buffer) : encodeTexts(this.dirKeys as string[]);
      const dir = Buffer.concat([Buffer.from(Float64Array.from(this.dirOffsets).buffer), Buffer.from(Uint32Array.from(this.dirLengths).buffer), keys]);
      const dictionaries = this.dicts.size > 0 ? { dictionaries: Object.fromEntries([...this.dicts].map(([name, ids]) => [name, [...ids.keys()]])) } : {};
      const meta = Buffer.from(JSON.stringify({ ...this.meta, rows: this.rows, pages, ...dictionaries } satisfies KeyedRowsMeta), 'utf8');
      const trailer = Buffer.alloc(TRAILER);
      trailer.writeUInt32LE(dir.length, 0);
      trailer.writeUInt32LE(meta.length, 4);
      trailer.write(KEYED_ROWS_MAGIC, 8, 'latin1');
      for (const b of [dir, meta, trailer]) this.write(b);
      this.drain();
      fsyncSync(this.fd);
      return { rows: this.rows, pages, bytes: this.offset };
    } finally {
      this.discard();
    }
  }

  discard(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  /** Encodes a row into `this.row`; returns its length. */
  private encode(key: Key, values: readonly Value[]): number {
    let at = 0;
    const room = (n: number) => {
      if (at + n > this.row.length) this.row = grow(this.row, at, at + n);
    };
    const text = (v: string) => {
      const bytes = Buffer.byteLength(v, 'utf8');
      room(5 + bytes);
      at = writeVarint(this.row, at, bytes);
      at += this.row.write(v, at, bytes, 'utf8');
    };
    if (typeof key === 'number') {
      room(8);
      at = this.row.writeDoubleLE(key, at);
    } else text(key);
    const cols = this.meta.columns;
    const nullAt = at;
    const nullBytes = (cols.length + 7) >> 3;
    room(nullBytes);
    this.row.fill(0, nullAt, nullAt + nullBytes);
    at += nullBytes;
    for (let i = 0; i < cols.length; i++) {
      const c = cols[i]!;
      const v = values[i];
      if (v === null || v === undefined) {
        this.row[nullAt + (i >> 3)]! |= 1 << (i & 7);
        continue;
      }
      if (c.kind === 'num') {
        if (typeof v !== 'number') throw new TypeError(`${this.path}: ${c.name} of row ${this.rows} is ${typeof v}, not a number`);
        room(8);
        at = this.row.writeDoubleLE(v, at);
      } else if (c.kind === 'small') {
        if (typeof v !== 'number' || !(Math.fround(v) === v || Number.isNaN(v))) throw new TypeError(`${this.path}: ${c.name} of row ${this.rows} is ${String(v)}, not a number a float32 holds exactly`);
        room(4);
        at = this.row.writeFloatLE(v, at);
      } else if (c.kind === 'bool') {
        if (typeof v !== 'boolean') throw new TypeError(`${this.path}: ${c.name} of row ${this.rows} is ${typeof v}, not a boolean`);
        room(1);
        this.row[at++] = v ? 1 : 0;
      } else if (c.kind === 'dict') {
        if (typeof v !== 'string') throw new TypeError(`${this.path}: ${c.name} of row ${this.rows} is ${typeof v}, not a string`);
        const ids = this.dicts.get(c.name)!;
        let id = ids.get(v);
        if (id === undefined) ids.set(v, (id = ids.size));
        room(5);
        at = writeVarint(this.row, at, id);
      } else {
        if (typeof v !== 'string') throw new TypeError(`${this.path}: ${c.name} of row ${this.rows} is ${typeof v}, not a string`);
        text(v);
      }
    }
    return at;
  }

  /** Writes the page held, padded to a multiple of PAGE. */
  private flush(): void {
    const n = this.rowStarts.length;
    const head = 4 + 4 * n;
    const length = head + this.bodyBytes;
    const padded = Math.ceil(length / PAGE) * PAGE;
    const page = Buffer.alloc(padded);
    page.writeUInt32LE(n, 0);
    for (let i = 0; i < n; i++) page.writeUInt32LE(head + this.rowStarts[i]!, 4 + 4 * i);
    this.body.copy(page, head, 0, this.bodyBytes);
    this.dirOffsets.push(this.offset);
    this.dirLengths.push(length);
    this.dirKeys.push(this.pageKey!);
    this.write(page);
    this.rowStarts.length = 0;
    this.bodyBytes = 0;
    if (this.body.length > 4 * PAGE) this.body = Buffer.allocUnsafe(PAGE); // a long row's page: not kept
  }

  /** Appends to the output buffer (written a megabyte at a time; `drain` writes what is left). */
  private write(b: Buffer): void {
    if (this.outBytes + b.length > this.out.length) this.drain();
    if (b.length >= this.out.length) this.writeNow(b);
    else this.outBytes += b.copy(this.out, this.outBytes);
    this.offset += b.length;
  }

  private drain(): void {
    if (this.outBytes === 0) return;
    this.writeNow(this.out.subarray(0, this.outBytes));
    this.outBytes = 0;
  }

  /** Writes `b` at the end of what the file holds (`offset` counts what is buffered too). */
  private writeNow(b: Buffer): void {
    const at = this.offset - this.outBytes;
    for (let done = 0; done < b.length;) done += writeSync(this.fd, b, done, b.length - done, at + done);
  }
}

/** A keyed-rows file opened for lookups; `R` is the row as column name → value (the key among them). */
export class KeyedRowsFile<R = Record<string, Value>> {
  readonly meta: KeyedRowsMeta;
  private readonly offsets: Float64Array;
  private readonly lengths: Uint32Array;
  private readonly firstKeys: ArrayLike<Key>;
  /** Each column's dictionary (dict columns only). */
  private readonly dictOf: ReadonlyArray<readonly string[] | undefined>;
  /**
   * A row of nulls with the key and every column in order, that each row is copied from: every
   * row then has one shape, and stays fast to make and to read. Properties added by name one by
   * one would leave a row of more than a dozen columns in V8's slow dictionary mode.
   */
  private readonly template: Record<string, Value>;
  /** Each column's kind as a `K_` code, for `numbersAt`'s loop over every row of a radius. */
  private readonly kinds: Uint8Array;
  /** How many columns (up to 8, one byte of null bits) lead the row as `num`s: a radius search's position is read at a fixed place. */
  private readonly numPrefix: number;
  /** For each column, the last column of the run of `small`s it starts or is in (its own index when not a small). */
  private readonly smallRunEnd: Int32Array;
  /** The columns' names, and `rowAt`'s values before they are named. */
  private readonly names: readonly string[];
  private readonly scratch: Value[];
  /** The decoders' view of the cache's memory, made again when a page lies in another buffer. */
  private dv: DataView | undefined;

  private constructor(private readonly file: BlockFile, meta: KeyedRowsMeta, offsets: Float64Array, lengths: Uint32Array, keys: ArrayLike<Key>) {
    this.meta = meta;
    this.kinds = Uint8Array.from(meta.columns, (c) => KIND_CODES[c.kind]);
    this.smallRunEnd = new Int32Array(this.kinds.length);
    for (let i = this.kinds.length - 1; i >= 0; i--) {
      this.smallRunEnd[i] = this.kinds[i] === K_SMALL && this.kinds[i + 1] === K_SMALL ? this.smallRunEnd[i + 1]! : i;
    }
    this.names = meta.columns.map((c) => c.name);
    this.scratch = meta.columns.map(() => null);
    const firstOther = this.kinds.findIndex((k) => k !== K_NUM);
    this.numPrefix = Math.min(8, firstOther < 0 ? this.kinds.length : firstOther);
    this.template = Object.fromEntries([meta.key.name, ...meta.columns.map((c) => c.name)].map((name) => [name, null]));
    this.dictOf = meta.columns.map((c) => (c.kind === 'dict' ? meta.dictionaries?.[c.name] : undefined));
    this.offsets = offsets;
    this.lengths = lengths;
    this.firstKeys = keys;
  }

  /** Opens `path` on `cache` and reads its directory; a file of another kind, or cut short, throws naming the path. */
  static open<R = Record<string, Value>>(path: string, cache: BlockCache): KeyedRowsFile<R> {
    const file = BlockFile.open(path, cache);
    try {
      if (file.size < TRAILER) throw new BlockFileError(`${path} is not a keyed-rows file (${file.size} bytes)`);
      const trailer = file.copy(file.size - TRAILER, TRAILER);
      if (trailer.toString('latin1', 8, 16) !== KEYED_ROWS_MAGIC) throw new BlockFileError(`${path} is not a keyed-rows file, or was not finished (no ${KEYED_ROWS_MAGIC} trailer)`);
      const dirBytes = trailer.readUInt32LE(0);
      const metaBytes = trailer.readUInt32LE(4);
      const metaAt = file.size - TRAILER - metaBytes;
      const dirAt = metaAt - dirBytes;
      if (dirAt < 0) throw new BlockFileError(`${path} is truncated (its directory would start at byte ${dirAt})`);
      const meta = JSON.parse(file.copy(metaAt, metaBytes).toString('utf8')) as KeyedRowsMeta;
      const dir = file.copy(dirAt, dirBytes);
      const p = meta.pages;
      const offsets = new Float64Array(dir.buffer.slice(dir.byteOffset, dir.byteOffset + 8 * p));
      const lengths = new Uint32Array(dir.buffer.slice(dir.byteOffset + 8 * p, dir.byteOffset + 12 * p));
      const keyBytes = dir.subarray(12 * p);
      const keys = meta.key.kind === 'num' ? new Float64Array(keyBytes.buffer.slice(keyBytes.byteOffset, keyBytes.byteOffset + 8 * p)) : decodeTexts(keyBytes, p, path);
      for (const c of meta.columns) {
        if (c.kind === 'dict' && !Array.isArray(meta.dictionaries?.[c.name])) throw new BlockFileError(`${path}: dict column ${c.name} has no dictionary in its meta`);
      }
      for (let i = 0; i < p; i++) {
        if (!Number.isInteger(offsets[i]) || lengths[i]! < 4 || offsets[i]! + lengths[i]! > dirAt) throw new BlockFileError(`${path}: page ${i} runs past the rows (byte ${offsets[i]! + lengths[i]!} of ${dirAt})`);
      }
      return new KeyedRowsFile<R>(file, meta, offsets, lengths, keys);
    } catch (e) {
      file.close();
      if (e instanceof SyntaxError || e instanceof RangeError) throw new BlockFileError(`${path}: its directory or meta cannot be read (${e.message})`);
      throw e;
    }
  }

  get size(): number {
    return this.meta.rows;
  }

  get path(): string {
    return this.file.path;
  }

  /** The rows of `key`, in the order written (empty when it has none). */
  get(key: Key): R[] {
    const out: R[] = [];
    const p = this.meta.pages;
    let page = this.firstPage(key);
    for (; page < p; page++) {
      if (page > 0 && this.firstKeys[page]! > key) break;
      // A view into the cache: every value is decoded from it before the next page is read.
      const b = this.file.view(this.offsets[page]!, this.lengths[page]!);
      const n = b.readUInt32LE(0);
      let j = this.firstRow(b, n, key);
      for (; j < n; j++) {
        const at = b.readUInt32LE(4 + 4 * j);
        const k = this.keyAt(b, at);
        if (k.key !== key) break;
        out.push(this.rowAt(b, k.key, k.end));
      }
      if (j < n) break; // a later key on this page: no more rows of `key`
    }
    return out;
  }

  /**
   * The rows with `lo ≤ key ≤ hi`, in key order (each key's in the order written), read through
   * the cache page by page: a run of adjacent keys (a row of grid cells) in one pass.
   */
  *range(lo: Key, hi: Key): Generator<R> {
    if (hi < lo) return;
    const p = this.meta.pages;
    for (let page = this.firstPage(lo); page < p; page++) {
      if (this.firstKeys[page]! > hi) return;
      // Rows are decoded before the next page is read, so the view into the cache is still valid.
      const b = this.file.view(this.offsets[page]!, this.lengths[page]!);
      const n = b.readUInt32LE(0);
      const rows: R[] = [];
      let j = this.firstRow(b, n, lo);
      for (; j < n; j++) {
        const k = this.keyAt(b, b.readUInt32LE(4 + 4 * j));
        if (k.key > hi) break;
        rows.push(this.rowAt(b, k.key, k.end));
      }
      yield* rows;
      if (j < n) return; // a key past hi on this page
    }
  }

  /**
   * `range` without a row object: calls `visit(page, at)` for each row with `lo ≤ key ≤ hi`,
   * in key order, where `page` is a view of the row's page valid only during the call and `at`
   * the byte of the row's null bits (just past its key). For a reader of a layout it knows (every
   * column a num, none null: a row's values at fixed offsets) that reads only what it needs of
   * many rows (a radius query's cells); it decodes them at once, and reads nothing else through
   * the cache meanwhile (a miss may reuse the page's slot).
   */
  rangeRaw(lo: Key, hi: Key, visit: (page: Buffer, at: number, key: Key) => void): void {
    if (hi < lo) return;
    const p = this.meta.pages;
    for (let page = this.firstPage(lo); page < p; page++) {
      if (this.firstKeys[page]! > hi) return;
      const b = this.file.view(this.offsets[page]!, this.lengths[page]!);
      const n = b.readUInt32LE(0);
      let j = this.firstRow(b, n, lo);
      if (this.meta.key.kind === 'num') {
        // Numeric keys without an object per row: a DataView reads them several times faster.
        const dv = new DataView(b.buffer, b.byteOffset, b.length);
        for (; j < n; j++) {
          const at = dv.getUint32(4 + 4 * j, true);
          const key = dv.getFloat64(at, true);
          if (key > (hi as number)) return;
          visit(b, at + 8, key);
        }
        continue;
      }
      for (; j < n; j++) {
        const k = this.keyAt(b, b.readUInt32LE(4 + 4 * j));
        if (k.key > hi) return;
        visit(b, k.end, k.key);
      }
    }
  }

  /** The row whose null bits are at `at` of `page`, with its `key` (a `rangeRaw` visit's three), as `get` gives it. */
  rowFrom(page: Buffer, at: number, key: Key): R {
    return this.rowAt(page, key, at);
  }

  /**
   * The numbers of columns `cols` (indexes, ascending; a `num` or `small` column's value, a
   * `dict` column's code into its dictionary) of the row whose null bits are at `at` of `page`
   * (a `rangeRaw` visit's), into `out` in that order (NaN for a null), with the columns before
   * them skipped by their lengths and no text decoded: a radius search reads a row's position,
   * or a filter its few fields, before deciding to decode the row.
   */
  numbersAt(page: Buffer, at: number, cols: readonly number[], out: Float64Array): void {
    const kinds = this.kinds;
    // A DataView over the page's memory (the cache's arena, one for every page read from it):
    // its getFloat64 is several times Buffer.readDoubleLE's speed.
    if (this.dv?.buffer !== page.buffer) this.dv = new DataView(page.buffer);
    const dv = this.dv;
    const base = page.byteOffset;
    const nullAt = at;
    at += (kinds.length + 7) >> 3;
    // Columns among the leading nums of a row with none of them null: at fixed places.
    if (cols[cols.length - 1]! < this.numPrefix && (page[nullAt]! & ((1 << this.numPrefix) - 1)) === 0) {
      for (let j = 0; j < cols.length; j++) out[j] = dv.getFloat64(base + at + 8 * cols[j]!, true);
      return;
    }
    let want = 0;
    for (let i = 0; want < cols.length; i++) {
      const kind = kinds[i]!;
      const isNull = (page[nullAt + (i >> 3)]! & (1 << (i & 7))) !== 0;
      if (i === cols[want]) {
        if (kind >= K_BOOL) throw new Error(`${this.file.path}: column ${this.meta.columns[i]!.name} is a ${this.meta.columns[i]!.kind}, not a number or a dict code`);
        // The rest wanted a run of smalls with none null (a listing's months): one after another.
        const last = cols[cols.length - 1]!;
        if (kind === K_SMALL && last <= this.smallRunEnd[i]! && cols.length - want === last - i + 1 && !anyBitSet(page, nullAt, i, last)) {
          for (let j = 0; want < cols.length; j++) out[want++] = dv.getFloat32(base + at + 4 * j, true);
          return;
        }
        out[want++] = isNull ? NaN : kind === K_NUM ? dv.getFloat64(base + at, true) : kind === K_SMALL ? dv.getFloat32(base + at, true) : varintAt(page, at);
      }
      if (isNull) continue;
      if (kind === K_NUM) at += 8;
      else if (kind === K_SMALL) at += 4;
      else if (kind === K_BOOL) at += 1;
      else if (kind === K_DICT) at = varintEnd(page, at);
      else {
        const [len, start] = readVarint(page, at);
        at = start + len;
      }
    }
  }

  /** A `dict` column's values in code order (what `numbersAt` reads of it indexes), or undefined for a column that is not one. */
  dictionary(column: string): readonly string[] | undefined {
    const i = this.meta.columns.findIndex((c) => c.name === column);
    return i < 0 ? undefined : this.dictOf[i];
  }

  /** The first row of `key`, or undefined. */
  first(key: Key): R | undefined {
    return this.get(key)[0];
  }

  /**
   * The first row of `key` as values by column index into `out` (the key not among them), with
   * no row object: for a reader of rows of many columns (a listing's 120 months), where building
   * an object of that many properties costs more than reading the row. False when it has none.
   */
  firstValues(key: Key, out: Value[]): boolean {
    return this.firstRaw(key, (b, at) => this.valuesAt(b, at, out, this.kinds.length));
  }

  /**
   * The first row of `key` undecoded: `visit(page, at)` as `rangeRaw` gives a row (`valuesFrom`,
   * `numbersAt` and `rowFrom` read it, during the call only). False when it has none.
   */
  firstRaw(key: Key, visit: (page: Buffer, at: number) => void): boolean {
    const p = this.meta.pages;
    // The page `firstPage` names, or the next when the key's rows start there.
    for (let page = this.firstPage(key); page < p; page++) {
      if (page > 0 && this.firstKeys[page]! > key) return false;
      const b = this.file.view(this.offsets[page]!, this.lengths[page]!);
      const n = b.readUInt32LE(0);
      const j = this.firstRow(b, n, key);
      if (j >= n) continue;
      const k = this.keyAt(b, b.readUInt32LE(4 + 4 * j));
      if (k.key !== key) return false;
      visit(b, k.end);
      return true;
    }
    return false;
  }

  /**
   * The values of the first `count` columns (all by default) of the row whose null bits are at
   * `at` of `page` (a `rangeRaw` or `firstRaw` visit's), into `out` by column index: a reader
   * that takes a row's many trailing numbers with `numbersAt` decodes its leading fields here.
   */
  valuesFrom(page: Buffer, at: number, out: Value[], count = this.kinds.length): void {
    this.valuesAt(page, at, out, Math.min(count, this.kinds.length));
  }

  /**
   * Every row in key order (for a loader that needs them all), read a megabyte at a time past
   * the cache, so a scan neither evicts the pages lookups use nor holds the file.
   */
  *scan(): Generator<R> {
    const p = this.meta.pages;
    for (let page = 0; page < p;) {
      const from = this.offsets[page]!;
      let last = page;
      while (last + 1 < p && this.offsets[last + 1]! + this.lengths[last + 1]! - from <= SCAN_BYTES) last++;
      const chunk = this.file.copy(from, this.offsets[last]! + this.lengths[last]! - from);
      for (; page <= last; page++) {
        const at = this.offsets[page]! - from;
        const b = chunk.subarray(at, at + this.lengths[page]!);
        const n = b.readUInt32LE(0);
        for (let j = 0; j < n; j++) {
          const k = this.keyAt(b, b.readUInt32LE(4 + 4 * j));
          yield this.rowAt(b, k.key, k.end);
        }
      }
    }
  }

  close(): void {
    this.file.close();
  }

  /** The first page whose first key is ≥ `key`, or the page before it: a key's rows may start there. */
  private firstPage(key: Key): number {
    return Math.max(0, partitionPoint(this.meta.pages, (i) => this.firstKeys[i]! < key) - 1);
  }

  /** The first row of page `b` (of `n` rows) whose key is ≥ `key`. */
  private firstRow(b: Buffer, n: number, key: Key): number {
    if (this.meta.key.kind === 'num') return partitionPoint(n, (j) => b.readDoubleLE(b.readUInt32LE(4 + 4 * j)) < (key as number));
    return partitionPoint(n, (j) => this.keyAt(b, b.readUInt32LE(4 + 4 * j)).key < key);
  }

  private keyAt(b: Buffer, at: number): { key: Key; end: number } {
    if (this.meta.key.kind === 'num') return { key: b.readDoubleLE(at), end: at + 8 };
    const [len, start] = readVarint(b, at);
    return { key: b.toString('utf8', start, start + len), end: start + len };
  }

  /** A row's values (from its null bits at `at`) into `out` by column index: `rowAt` without the object. */
  private valuesAt(b: Buffer, at: number, out: Value[], count: number): void {
    const kinds = this.kinds;
    if (this.dv?.buffer !== b.buffer) this.dv = new DataView(b.buffer);
    const dv = this.dv;
    const base = b.byteOffset;
    const nullAt = at;
    at += (kinds.length + 7) >> 3;
    for (let i = 0; i < count; i++) {
      const kind = kinds[i]!;
      if (b[nullAt + (i >> 3)]! & (1 << (i & 7))) {
        out[i] = null;
      } else if (kind === K_SMALL) {
        out[i] = dv.getFloat32(base + at, true);
        at += 4;
      } else if (kind === K_NUM) {
        out[i] = dv.getFloat64(base + at, true);
        at += 8;
      } else if (kind === K_BOOL) {
        out[i] = b[at] === 1;
        at += 1;
      } else if (kind === K_DICT) {
        const [code, next] = readVarint(b, at);
        const v = this.dictOf[i]![code];
        if (v === undefined) throw new BlockFileError(`${this.file.path}: ${this.meta.columns[i]!.name} has code ${code}, past its dictionary of ${this.dictOf[i]!.length}`);
        out[i] = v;
        at = next;
      } else {
        const [len, start] = readVarint(b, at);
        out[i] = b.toString('utf8', start, start + len);
        at = start + len;
      }
    }
  }

  private rowAt(b: Buffer, key: Key, at: number): R {
    const values = this.scratch;
    this.valuesAt(b, at, values, this.kinds.length);
    const names = this.names;
    const row = { ...this.template };
    row[this.meta.key.name] = key;
    for (let i = 0; i < names.length; i++) row[names[i]!] = values[i]!;
    return row as R;
  }
}

function textBytes(s: string): Buffer {
  const utf8 = encoder.encode(s);
  return Buffer.concat([varint(utf8.length), utf8]);
}

/** Writes `n` as a varint at `at` (at most 5 bytes for a length or a code); returns the end. */
function writeVarint(b: Buffer, at: number, n: number): number {
  do {
    b[at++] = (n & 0x7f) | (n >= 0x80 ? 0x80 : 0);
    n >>>= 7;
  } while (n > 0);
  return at;
}

/** A buffer of at least `need` bytes holding the first `used` of `b`. */
function grow(b: Buffer, used: number, need: number): Buffer {
  const next = Buffer.allocUnsafe(Math.max(need, 2 * b.length));
  b.copy(next, 0, 0, used);
  return next;
}

function varint(n: number): Buffer {
  const head: number[] = [];
  do {
    head.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
    n >>>= 7;
  } while (n > 0);
  return Buffer.from(head);
}

/** Column kinds as numbers, those `numbersAt` reads first. */
const [K_NUM, K_SMALL, K_DICT, K_BOOL, K_TEXT] = [0, 1, 2, 3, 4] as const;
const KIND_CODES: Record<ValueKind, number> = { num: K_NUM, small: K_SMALL, dict: K_DICT, bool: K_BOOL, text: K_TEXT };

/** Whether any of bits `from`..`to` (inclusive) of the bit set at byte `at` is set. */
function anyBitSet(b: Buffer, at: number, from: number, to: number): boolean {
  for (let i = from; i <= to;) {
    if ((i & 7) === 0 && i + 7 <= to) {
      if (b[at + (i >> 3)] !== 0) return true;
      i += 8;
    } else {
      if (b[at + (i >> 3)]! & (1 << (i & 7))) return true;
      i++;
    }
  }
  return false;
}

/** The varint at `at` (a one-byte code without `readVarint`'s pair). */
function varintAt(b: Buffer, at: number): number {
  const b0 = b[at]!;
  return b0 < 0x80 ? b0 : readVarint(b, at)[0];
}

/** Where the varint at `at` ends. */
function varintEnd(b: Buffer, at: number): number {
  while (b[at]! >= 0x80) at++;
  return at + 1;
}

function readVarint(b: Buffer, at: number): [number, number] {
  let n = 0;
  let shift = 0;
  for (;;) {
    const byte = b[at++];
    if (byte === undefined) throw new BlockFileError('a varint runs past its page');
    n += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [n, at];
    shift += 7;
  }
}

function encodeTexts(keys: readonly string[]): Buffer {
  return Buffer.concat(keys.map(textBytes));
}

function decodeTexts(b: Buffer, n: number, path: string): string[] {
  const out: string[] = [];
  let at = 0;
  for (let i = 0; i < n; i++) {
    const [len, start] = readVarint(b, at);
    if (start + len > b.length) throw new BlockFileError(`${path}: page key ${i} runs past its directory`);
    out.push(b.toString('utf8', start, start + len));
    at = start + len;
  }
  return out;
}
