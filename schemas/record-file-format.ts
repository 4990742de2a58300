import { GrowableBytes, readSectionsFile, writeSectionsFile, type SectionArray } from './sections-file.ts';
import { lowerBound } from './sorted-search.ts';

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

const MAGIC = 'PIRECS01';
const decoder = new TextDecoder();

/**
 * Builds a record file from rows streamed in ascending, distinct `uprn` order (`expected`
 * of them, counted beforehand), holding only typed arrays, never the rows.
 */
export class RecordFileWriter {
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

/** One build's record file, read into memory: `get(uprn)` is a binary search and a row decode. */
export class RecordFile {
  readonly n: number;
  readonly columns: readonly ColumnSpec[];
  private readonly uprn: Float64Array;
  private readonly readers: Array<[string, (i: number) => RecordValue]>;

  constructor(buf: Uint8Array, path: string) {
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
    const u = this.uprn;
    const lo = lowerBound(u, uprn);
    if (lo >= u.length || u[lo] !== uprn) return undefined;
    const row: Record<string, RecordValue> = { uprn };
    for (const [name, read] of this.readers) row[name] = read(lo);
    return row;
  }
}

/** The property record file a build publishes: the `properties` columns the record endpoint serves. */
export const PROPERTY_RECORDS_FILE = 'property-records.bin';
export const PROPERTY_RECORD_COLUMNS: readonly ColumnSpec[] = [
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
  // The rest of the spatial flags (uprn_flags, via properties): GET /risks/{uprn} and the HMO
  // valuation read them here, so every endpoint reads the same result.
  { name: 'flood_zone', kind: 'small' },
  { name: 'article_4', kind: 'bool' },
  { name: 'listed_building', kind: 'bool' },
];
