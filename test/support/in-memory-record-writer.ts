import { closeSync, openSync, writeSync } from 'node:fs';
import type { ColumnSpec } from '../../lib/files/record-file-format.ts';
import { GrowableBytes, SECTION_TYPES, type SectionArray, type SectionType } from '../../lib/files/sections-file.ts';

/**
 * The record file writer as it was before it spilled its sections to temporary files
 * (every section a whole typed array in memory until `finish`), with the sections-file
 * layout code of that time: frozen here as the reference the spilling writer must match
 * byte for byte (test/unit/record-file-spill.test.ts). Do not change it to follow the
 * writer; it is the expectation.
 */
const MAGIC = 'PIRECS01';

const pad8 = (n: number) => (8 - (n % 8)) % 8;

function typeOf(a: SectionArray): SectionType {
  for (const [t, C] of Object.entries(SECTION_TYPES)) if (a instanceof C) return t as SectionType;
  throw new Error('unsupported section array');
}

/** Writes `sections` in the given order after `meta`; returns the bytes written. */
function writeSectionsFile(path: string, magic: string, meta: object, sections: ReadonlyArray<readonly [string, SectionArray]>): number {
  if (magic.length !== 8) throw new Error('magic must be 8 characters');
  const layout: Record<string, [number, number, SectionType]> = {};
  let off = 0;
  for (const [name, a] of sections) {
    layout[name] = [off, a.length, typeOf(a)];
    off += a.byteLength + pad8(a.byteLength);
  }
  const header = Buffer.from(JSON.stringify({ meta, layout }), 'utf8');
  const head = Buffer.alloc(16 + header.length + pad8(16 + header.length));
  head.write(magic, 0, 'latin1');
  head.writeUInt32LE(header.length, 8);
  header.copy(head, 16);
  const fd = openSync(path, 'w');
  try {
    let bytes = writeSync(fd, head);
    const zeros = Buffer.alloc(8);
    for (const [, a] of sections) {
      bytes += writeSync(fd, new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
      bytes += writeSync(fd, zeros, 0, pad8(a.byteLength));
    }
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/**
 * Builds a record file from rows streamed in ascending, distinct `uprn` order (`expected`
 * of them, counted beforehand), holding only typed arrays, never the rows.
 */
export class InMemoryRecordWriter {
  private n = 0;
  private readonly uprn: Float64Array;
  private readonly nums = new Map<string, Float64Array | Float32Array>();
  private readonly bools = new Map<string, Uint8Array>();
  private readonly dicts = new Map<string, { ids: Map<string, number>; codes: Uint32Array }>();
  private readonly texts = new Map<string, { off: Uint32Array; bytes: GrowableBytes; nulls: Uint8Array }>();

  constructor(private readonly columns: readonly ColumnSpec[], private readonly expected: number) {
    this.uprn = new Float64Array(expected);
    for (const c of columns) {
      if (c.kind === 'num') this.nums.set(c.name, new Float64Array(expected));
      else if (c.kind === 'small') this.nums.set(c.name, new Float32Array(expected));
      else if (c.kind === 'bool') this.bools.set(c.name, new Uint8Array(expected));
      else if (c.kind === 'dict') this.dicts.set(c.name, { ids: new Map(), codes: new Uint32Array(expected) });
      else this.texts.set(c.name, { off: new Uint32Array(expected + 1), bytes: new GrowableBytes(), nulls: new Uint8Array(expected) });
    }
  }

  add(r: Record<string, unknown>): void {
    const i = this.n;
    if (i >= this.expected) throw new Error(`more rows than the ${this.expected} counted`);
    const u = Number(r.uprn);
    if (!(u > (i > 0 ? this.uprn[i - 1]! : -Infinity))) throw new Error(`record file rows must be sorted by distinct uprn (row ${i}, uprn ${u})`);
    this.uprn[i] = u;
    const absent = (v: unknown) => v === null || v === undefined;
    for (const [name, a] of this.nums) a[i] = absent(r[name]) ? NaN : Number(r[name]);
    for (const [name, a] of this.bools) a[i] = absent(r[name]) ? 2 : r[name] === true || r[name] === 'true' ? 1 : 0;
    for (const [name, d] of this.dicts) {
      const v = r[name];
      if (absent(v)) continue; // code 0
      const s = String(v);
      let id = d.ids.get(s);
      if (id === undefined) d.ids.set(s, (id = d.ids.size + 1));
      d.codes[i] = id;
    }
    for (const [name, t] of this.texts) {
      const v = r[name];
      if (absent(v)) t.nulls[i] = 1;
      else t.bytes.push(String(v));
      t.off[i + 1] = t.bytes.length;
    }
    this.n++;
  }

  /**
   * Adds `rows` rows given column-wise: their uprns, then one array per column in the order
   * of `columns`, each value read as `add` reads it (null or undefined for null). The same
   * file as `add` row by row, without an object per row or a Map walk per value: a `num` or
   * `small` column given as a typed array (NaN for null) is copied whole.
   */
  addColumns(rows: number, uprn: ArrayLike<unknown>, values: ReadonlyArray<ArrayLike<unknown>>): void {
    const at = this.n;
    if (at + rows > this.expected) throw new Error(`more rows than the ${this.expected} counted`);
    if (values.length !== this.columns.length) throw new Error(`expected ${this.columns.length} columns, got ${values.length}`);
    if ([uprn, ...values].some((v) => v.length < rows)) throw new Error(`a column has fewer than the ${rows} rows added`);
    let prev = at > 0 ? this.uprn[at - 1]! : -Infinity;
    for (let k = 0; k < rows; k++) {
      const u = Number(uprn[k]);
      if (!(u > prev)) throw new Error(`record file rows must be sorted by distinct uprn (row ${at + k}, uprn ${u})`);
      this.uprn[at + k] = prev = u;
    }
    for (let c = 0; c < this.columns.length; c++) {
      const { name, kind } = this.columns[c]!;
      const src = values[c]!;
      if (kind === 'num' || kind === 'small') addNumbers(this.nums.get(name)!, at, rows, src);
      else if (kind === 'bool') {
        const a = this.bools.get(name)!;
        for (let k = 0; k < rows; k++) {
          const v = src[k];
          a[at + k] = v === null || v === undefined ? 2 : v === true || v === 'true' ? 1 : 0;
        }
      } else if (kind === 'dict') {
        const { ids, codes } = this.dicts.get(name)!;
        for (let k = 0; k < rows; k++) {
          const v = src[k];
          if (v === null || v === undefined) continue; // code 0
          const s = String(v);
          let id = ids.get(s);
          if (id === undefined) ids.set(s, (id = ids.size + 1));
          codes[at + k] = id;
        }
      } else {
        const t = this.texts.get(name)!;
        for (let k = 0; k < rows; k++) {
          const v = src[k];
          if (v === null || v === undefined) t.nulls[at + k] = 1;
          else t.bytes.push(String(v));
          t.off[at + k + 1] = t.bytes.length;
        }
      }
    }
    this.n += rows;
  }

  /** Writes the file; returns the bytes written. */
  finish(path: string): number {
    if (this.n !== this.expected) throw new Error(`expected ${this.expected} rows, got ${this.n}`);
    const sections: Array<readonly [string, SectionArray]> = [['uprn', this.uprn]];
    const dictionaries: Record<string, string[]> = {};
    for (const c of this.columns) {
      if (c.kind === 'num' || c.kind === 'small') sections.push([c.name, this.nums.get(c.name)!]);
      else if (c.kind === 'bool') sections.push([c.name, this.bools.get(c.name)!]);
      else if (c.kind === 'dict') {
        // Codes were given in arrival order; the file's dictionary is sorted.
        const { ids, codes } = this.dicts.get(c.name)!;
        const dict = [...ids.keys()].sort();
        const remap = new Uint32Array(ids.size + 1);
        dict.forEach((s, k) => (remap[ids.get(s)!] = k + 1));
        const out = dict.length < 0xffff ? new Uint16Array(this.n) : new Uint32Array(this.n);
        for (let i = 0; i < this.n; i++) out[i] = remap[codes[i]!]!;
        dictionaries[c.name] = dict;
        sections.push([c.name, out]);
      } else {
        const t = this.texts.get(c.name)!;
        sections.push([`${c.name}.off`, t.off], [`${c.name}.bytes`, t.bytes.bytes()], [`${c.name}.null`, t.nulls]);
      }
    }
    return writeSectionsFile(path, MAGIC, { n: this.n, columns: this.columns, dictionaries }, sections);
  }
}

/** Copies `rows` numbers into `a` from `at`: a typed array whole (converted as an assignment would), other arrays value by value. */
function addNumbers(a: Float64Array | Float32Array, at: number, rows: number, src: ArrayLike<unknown>): void {
  if (src instanceof Float64Array || src instanceof Float32Array) {
    a.set(src.length === rows ? src : src.subarray(0, rows), at);
    return;
  }
  for (let k = 0; k < rows; k++) {
    const v = src[k];
    a[at + k] = v === null || v === undefined ? NaN : Number(v);
  }
}
