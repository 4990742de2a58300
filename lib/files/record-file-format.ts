import { SpilledSection, SpillFolder, spillBufferBytes, type SpillOptions } from './section-spill.ts';
import { readSectionsFile, writeSectionSources, type SectionSource, type SectionType } from './sections-file.ts';
import { lowerBound } from '../../schemas/sorted-search.ts';

/**
 * A table keyed by UPRN as a sections file (`sections-file.ts`), for point lookups in the
 * service without a SQL round trip: rows sorted by UPRN (a binary search finds one), each
 * column a typed array used in place. Kinds:
 * - `num`: Float64, NaN for null;  `small`: Float32 (small integers such as bedrooms), NaN for null;
 * - `dict`: a code per row (0 null, else 1 + index into the column's sorted dictionary),
 *   for repeated strings (postcode, type, ratings, dates);
 * - `text`: UTF-8 bytes per row (offsets), for strings that rarely repeat (the address);
 * - `bool`: 0 false, 1 true, 2 null.
 */
export type ColumnKind = 'num' | 'small' | 'dict' | 'text' | 'bool';
export interface ColumnSpec {
  name: string;
  kind: ColumnKind;
}
export type RecordValue = number | string | boolean | null;

/**
 * A dict column's values for `addColumns` given as codes into a dictionary of the caller's
 * (0 null, else 1 + index into `dict`), as DuckDB gives an ENUM's codes: no string per row.
 * Pass the same `dict` array for every batch (the writer keeps its mapping per array).
 */
export interface DictCodes {
  codes: ArrayLike<number>;
  dict: readonly string[];
}

/** The record file's magic (its first 8 bytes), for readers other than `RecordFile`. */
export const RECORD_FILE_MAGIC = 'PIRECS01';
const MAGIC = RECORD_FILE_MAGIC;
const decoder = new TextDecoder();

/**
 * Builds a record file from rows streamed in ascending, distinct `uprn` order (`expected`
 * of them, counted beforehand), holding neither the rows nor the columns: each section is
 * appended through a bounded buffer and spilled to a temporary file (`section-spill.ts`) in
 * `spillDir`, then streamed into the file by `finish`. Only the dict columns' dictionaries
 * (their distinct strings) stay in memory. The spill files go when `finish` returns or
 * throws, when `add` or `addColumns` throws (the writer is unusable after), or on `discard`,
 * which an owner that gives up on the writer calls.
 */
export class RecordFileWriter {
  private n = 0;
  private lastUprn = -Infinity;
  private discarded = false;
  private readonly folder: SpillFolder;
  private readonly uprn: SpilledSection;
  private readonly nums = new Map<string, SpilledSection>();
  private readonly bools = new Map<string, SpilledSection>();
  private readonly dicts = new Map<string, DictColumn>();
  private readonly texts = new Map<string, { off: SpilledSection; bytes: SpilledSection; nulls: SpilledSection }>();

  constructor(private readonly columns: readonly ColumnSpec[], private readonly expected: number, opts: SpillOptions = {}) {
    const bufferBytes = spillBufferBytes(opts);
    this.folder = new SpillFolder(opts.spillDir, '.record-file-spill-');
    const section = (name: string, type: SectionType) => new SpilledSection(this.folder, name, type, bufferBytes);
    this.uprn = section('uprn', 'f64');
    for (const c of columns) {
      if (c.kind === 'num') this.nums.set(c.name, section(c.name, 'f64'));
      else if (c.kind === 'small') this.nums.set(c.name, section(c.name, 'f32'));
      else if (c.kind === 'bool') this.bools.set(c.name, section(c.name, 'u8'));
      else if (c.kind === 'dict') this.dicts.set(c.name, { ids: new Map(), codes: section(c.name, 'u32'), given: new WeakMap() });
      else {
        const off = section(`${c.name}.off`, 'u32');
        off.push(0);
        this.texts.set(c.name, { off, bytes: section(`${c.name}.bytes`, 'u8'), nulls: section(`${c.name}.null`, 'u8') });
      }
    }
  }

  add(r: Record<string, unknown>): void {
    this.guard(() => {
      const i = this.n;
      if (i >= this.expected) throw new Error(`more rows than the ${this.expected} counted`);
      const u = Number(r.uprn);
      if (!(u > this.lastUprn)) throw new Error(`record file rows must be sorted by distinct uprn (row ${i}, uprn ${u})`);
      this.live();
      this.uprn.push((this.lastUprn = u));
      const absent = (v: unknown) => v === null || v === undefined;
      for (const [name, s] of this.nums) s.push(absent(r[name]) ? NaN : Number(r[name]));
      for (const [name, s] of this.bools) s.push(absent(r[name]) ? 2 : r[name] === true || r[name] === 'true' ? 1 : 0);
      for (const [name, d] of this.dicts) d.codes.push(dictCode(d.ids, r[name]));
      for (const [name, t] of this.texts) addText(t, r[name]);
      this.n++;
    });
  }

  /**
   * Adds `rows` rows given column-wise: their uprns, then one array per column in the order
   * of `columns`, each value read as `add` reads it (null or undefined for null). The same
   * file as `add` row by row, without an object per row or a Map walk per value: a `num` or
   * `small` column given as a typed array (NaN for null) is copied whole, and a `dict` column
   * may come as codes into a dictionary (`DictCodes`).
   */
  addColumns(rows: number, uprn: ArrayLike<unknown>, values: ReadonlyArray<ArrayLike<unknown> | DictCodes>): void {
    this.guard(() => {
      const at = this.n;
      if (at + rows > this.expected) throw new Error(`more rows than the ${this.expected} counted`);
      if (values.length !== this.columns.length) throw new Error(`expected ${this.columns.length} columns, got ${values.length}`);
      if ([uprn, ...values].some((v) => (isDictCodes(v) ? v.codes : v).length < rows)) throw new Error(`a column has fewer than the ${rows} rows added`);
      values.forEach((v, c) => {
        if (isDictCodes(v) && this.columns[c]!.kind !== 'dict') throw new Error(`column ${this.columns[c]!.name} is ${this.columns[c]!.kind}, not dict: it cannot take codes`);
      });
      // Every uprn checked before any value is appended.
      let prev = this.lastUprn;
      for (let k = 0; k < rows; k++) {
        const u = Number(uprn[k]);
        if (!(u > prev)) throw new Error(`record file rows must be sorted by distinct uprn (row ${at + k}, uprn ${u})`);
        prev = u;
      }
      this.live();
      for (let k = 0; k < rows; k++) this.uprn.push(Number(uprn[k]));
      if (rows > 0) this.lastUprn = prev;
      for (let c = 0; c < this.columns.length; c++) {
        const { name, kind } = this.columns[c]!;
        const given = values[c]!;
        if (isDictCodes(given)) {
          addDictCodes(this.dicts.get(name)!, rows, given);
          continue;
        }
        const src = given;
        if (kind === 'num' || kind === 'small') addNumbers(this.nums.get(name)!, rows, src);
        else if (kind === 'bool') {
          const s = this.bools.get(name)!;
          for (let k = 0; k < rows; k++) {
            const v = src[k];
            s.push(v === null || v === undefined ? 2 : v === true || v === 'true' ? 1 : 0);
          }
        } else if (kind === 'dict') {
          const { ids, codes } = this.dicts.get(name)!;
          for (let k = 0; k < rows; k++) codes.push(dictCode(ids, src[k]));
        } else {
          const t = this.texts.get(name)!;
          for (let k = 0; k < rows; k++) addText(t, src[k]);
        }
      }
      this.n += rows;
    });
  }

  /** Writes the file, streaming each section from its spill; returns the bytes written. */
  finish(path: string): number {
    return this.guard(() => {
      if (this.n !== this.expected) throw new Error(`expected ${this.expected} rows, got ${this.n}`);
      this.live();
      const sources: SectionSource[] = [this.uprn.source('uprn')];
      const dictionaries: Record<string, string[]> = {};
      for (const c of this.columns) {
        if (c.kind === 'num' || c.kind === 'small') sources.push(this.nums.get(c.name)!.source(c.name));
        else if (c.kind === 'bool') sources.push(this.bools.get(c.name)!.source(c.name));
        else if (c.kind === 'dict') {
          const { ids, codes } = this.dicts.get(c.name)!;
          const { dict, source } = sortedDictionary(c.name, ids, codes);
          dictionaries[c.name] = dict;
          sources.push(source);
        } else {
          const t = this.texts.get(c.name)!;
          sources.push(t.off.source(`${c.name}.off`), t.bytes.source(`${c.name}.bytes`), t.nulls.source(`${c.name}.null`));
        }
      }
      const bytes = writeSectionSources(path, MAGIC, { n: this.n, columns: this.columns, dictionaries }, sources);
      this.discard();
      return bytes;
    });
  }

  /** Removes the spill files; the writer takes nothing more. Safe to call at any time, more than once. */
  discard(): void {
    this.discarded = true;
    this.folder.remove();
  }

  /** Bytes the writer holds besides its dictionaries: its sections' buffers, bounded by the buffer size whatever the rows. */
  heldBytes(): number {
    let bytes = this.uprn.heldBytes();
    for (const s of [...this.nums.values(), ...this.bools.values()]) bytes += s.heldBytes();
    for (const d of this.dicts.values()) bytes += d.codes.heldBytes();
    for (const t of this.texts.values()) bytes += t.off.heldBytes() + t.bytes.heldBytes() + t.nulls.heldBytes();
    return bytes;
  }

  /** Runs `f`; when it throws, the spill files go before the error does. */
  private guard<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      this.discard();
      throw e;
    }
  }

  private live(): void {
    if (this.discarded) throw new Error('the record file writer was finished or discarded (after an error)');
  }
}

/**
 * A dict column being written: the ids of its strings in first-seen order, their codes, and
 * for each dictionary given as `DictCodes` the id of each of its entries (0 until first seen).
 */
interface DictColumn {
  ids: Map<string, number>;
  codes: SpilledSection;
  given: WeakMap<readonly string[], Uint32Array>;
}

function isDictCodes(v: ArrayLike<unknown> | DictCodes): v is DictCodes {
  return typeof v === 'object' && v !== null && 'codes' in v && 'dict' in v && Array.isArray(v.dict);
}

/**
 * Appends coded values as their strings would be (`dictCode` on first sight of an entry, so
 * the file is the one the strings make), without a string or a Map lookup per row.
 */
function addDictCodes(d: DictColumn, rows: number, { codes, dict }: DictCodes): void {
  let ids = d.given.get(dict);
  if (!ids) d.given.set(dict, (ids = new Uint32Array(dict.length)));
  for (let k = 0; k < rows; k++) {
    const code = codes[k]!;
    if (code === 0) {
      d.codes.push(0);
      continue;
    }
    if (!Number.isInteger(code) || code < 0 || code > dict.length) throw new Error(`dictionary code ${code} is outside 0..${dict.length}`);
    let id = ids[code - 1]!;
    if (id === 0) ids[code - 1] = id = dictCode(d.ids, dict[code - 1]);
    d.codes.push(id);
  }
}

/** A dict column's code for `v`: 0 for null, else 1 + its index in first-seen order (new values join `ids`). */
function dictCode(ids: Map<string, number>, v: unknown): number {
  if (v === null || v === undefined) return 0;
  const s = String(v);
  let id = ids.get(s);
  if (id === undefined) ids.set(s, (id = ids.size + 1));
  return id;
}

function addText(t: { off: SpilledSection; bytes: SpilledSection; nulls: SpilledSection }, v: unknown): void {
  if (v === null || v === undefined) t.nulls.push(1);
  else {
    t.nulls.push(0);
    t.bytes.pushText(String(v));
  }
  t.off.push(t.bytes.length);
}

/**
 * A dict column's sorted dictionary and its codes as a section: the codes were spilled in
 * first-seen order and are remapped to the sorted order a piece at a time as the file is
 * written, 16-bit while the dictionary has fewer than 0xffff entries, else 32-bit.
 */
function sortedDictionary(name: string, ids: Map<string, number>, codes: SpilledSection): { dict: string[]; source: SectionSource } {
  const dict = [...ids.keys()].sort();
  const remap = new Uint32Array(ids.size + 1);
  dict.forEach((s, k) => (remap[ids.get(s)!] = k + 1));
  return { dict, source: codes.mappedSource(name, dict.length < 0xffff ? 'u16' : 'u32', remap) };
}

/** Appends `rows` numbers: a typed array a buffer at a time (converted as an assignment would), other arrays value by value. */
function addNumbers(s: SpilledSection, rows: number, src: ArrayLike<unknown>): void {
  if (src instanceof Float64Array || src instanceof Float32Array) {
    s.pushAll(src, rows);
    return;
  }
  for (let k = 0; k < rows; k++) {
    const v = src[k];
    s.push(v === null || v === undefined ? NaN : Number(v));
  }
}

/** One build's record file, read into memory: `get(uprn)` is a binary search and a row decode. */
export class RecordFile {
  readonly n: number;
  readonly columns: readonly ColumnSpec[];
  private readonly uprn: Float64Array;
  private readonly readers: Array<[string, (i: number) => RecordValue]>;

  /** `path` names the file in errors (its own and a typed view's, `record-view.ts`). */
  constructor(buf: Uint8Array, readonly path: string) {
    const f = readSectionsFile<{ n: number; columns: ColumnSpec[]; dictionaries: Record<string, string[]> }>(buf, MAGIC, 'a record file', path);
    this.n = f.meta.n;
    this.columns = f.meta.columns;
    this.uprn = f.section<Float64Array>('uprn');
    this.readers = this.columns.map((c): [string, (i: number) => RecordValue] => {
      if (c.kind === 'num' || c.kind === 'small') {
        const a = f.section<Float64Array | Float32Array>(c.name);
        return [c.name, (i) => (Number.isNaN(a[i]!) ? null : a[i]!)];
      }
      if (c.kind === 'bool') {
        const a = f.section<Uint8Array>(c.name);
        return [c.name, (i) => (a[i] === 2 ? null : a[i] === 1)];
      }
      if (c.kind === 'dict') {
        const a = f.section<Uint16Array | Uint32Array>(c.name);
        const dict = f.meta.dictionaries[c.name] ?? [];
        return [c.name, (i) => (a[i] === 0 ? null : dict[a[i]! - 1]!)];
      }
      const off = f.section<Uint32Array>(`${c.name}.off`);
      const bytes = f.section<Uint8Array>(`${c.name}.bytes`);
      const nulls = f.section<Uint8Array>(`${c.name}.null`);
      return [c.name, (i) => (nulls[i] === 1 ? null : decoder.decode(bytes.subarray(off[i]!, off[i + 1]!)))];
    });
  }

  /** The row of `uprn` as column name → value (uprn a number), or undefined. */
  get(uprn: number): Record<string, RecordValue> | undefined {
    return this.rowOf(uprn, this.readers);
  }

  /**
   * A lookup like `get` that decodes only the columns `names` (each one of the file's: a name
   * the file lacks throws), for a reader that declares what it reads (`record-view.ts`).
   */
  project(names: readonly string[]): (uprn: number) => Record<string, RecordValue> | undefined {
    const readers = names.map((name) => {
      const r = this.readers.find(([n]) => n === name);
      if (!r) throw new Error(`the record file has no column ${name}`);
      return r;
    });
    return (uprn) => this.rowOf(uprn, readers);
  }

  private rowOf(uprn: number, readers: ReadonlyArray<[string, (i: number) => RecordValue]>): Record<string, RecordValue> | undefined {
    const u = this.uprn;
    const lo = lowerBound(u, uprn);
    if (lo >= u.length || u[lo] !== uprn) return undefined;
    const row: Record<string, RecordValue> = { uprn };
    for (const [name, read] of readers) row[name] = read(lo);
    return row;
  }
}

/** The property record file a build publishes: the `properties` columns the record endpoint serves. */
export const PROPERTY_RECORDS_FILE = 'property-records.bin';
/**
 * The columns every published record file has, in file order. Declared `as const` so a reader's
 * typed view (`record-view.ts`) takes each column's name and kind from here; each is one of the
 * `properties` contract's columns with a kind its type allows (test/unit/record-view.test.ts).
 */
export const PROPERTY_RECORD_BASE_COLUMNS = [
  { name: 'address', kind: 'text' },
  { name: 'postcode', kind: 'dict' },
  { name: 'lat', kind: 'num' },
  { name: 'lng', kind: 'num' },
  { name: 'country', kind: 'dict' },
  { name: 'property_type', kind: 'dict' },
  { name: 'built_form', kind: 'dict' },
  { name: 'floor_area_sqft', kind: 'num' },
  { name: 'habitable_rooms', kind: 'small' },
  { name: 'bedrooms', kind: 'small' },
  { name: 'tenure', kind: 'dict' },
  { name: 'construction_age', kind: 'dict' },
  { name: 'epc_current_rating', kind: 'dict' },
  { name: 'epc_potential_rating', kind: 'dict' },
  { name: 'plot_size', kind: 'num' },
  { name: 'last_sold_price', kind: 'num' },
  { name: 'last_sold_date', kind: 'dict' },
  { name: 'flood_zone_2', kind: 'bool' },
  { name: 'flood_zone_3', kind: 'bool' },
  { name: 'conservation_area', kind: 'bool' },
] as const satisfies readonly ColumnSpec[];
/**
 * The rest of the spatial flags (uprn_flags, via properties): GET /risks/{uprn} and the HMO
 * valuation read them here, so every endpoint reads the same result. Builds published before
 * they were added lack them: those serve the record but not risks or HMO valuations.
 */
export const PROPERTY_RECORD_FLAG_COLUMNS = [
  { name: 'flood_zone', kind: 'small' },
  { name: 'article_4', kind: 'bool' },
  { name: 'listed_building', kind: 'bool' },
] as const satisfies readonly ColumnSpec[];
/** The columns a build's record file is written with, in file order. */
export const PROPERTY_RECORD_COLUMNS = [...PROPERTY_RECORD_BASE_COLUMNS, ...PROPERTY_RECORD_FLAG_COLUMNS] as const;
