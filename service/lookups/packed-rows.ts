import { lowerBound, partitionPoint } from '../../schemas/sorted-search.ts';
import type { QueryName, Row } from '../store/queries.ts';
import type { StoreReads } from '../store/store.ts';

/**
 * A large per-build table (a million sales or certificates at a million addresses) held in
 * the process as columns of typed arrays, looked up by key: a DuckDB point query costs a few
 * milliseconds of binding, probing and materialising per request and occupies one of DuckDB's
 * threads (measured with bench/service-time.ts), and the same rows as JS objects would add
 * millions of objects for every major GC to mark. Typed arrays and one string buffer per
 * high-cardinality column are outside what the GC walks; a row object is made only when asked.
 * Values are the query's decoded values (service/store/decode.ts), typed by its declaration.
 */

/** One column: values by row index. */
interface Column { get(i: number): unknown }

/** Distinct strings at most this many: codes into a dictionary; more: one UTF-8 buffer. */
const DICTIONARY_MAX = 0xfffe;
const NULL_CODE = 0xffff;

class NumberColumn implements Column {
  constructor(private readonly values: Float64Array, private readonly nulls: Uint8Array) {}
  get(i: number): number | null {
    return this.nulls[i] ? null : this.values[i]!;
  }
}

class BooleanColumn implements Column {
  /** 0 false, 1 true, 2 null. */
  constructor(private readonly values: Uint8Array) {}
  get(i: number): boolean | null {
    const v = this.values[i]!;
    return v === 2 ? null : v === 1;
  }
}

class DictionaryColumn implements Column {
  constructor(private readonly codes: Uint16Array, private readonly words: readonly string[]) {}
  get(i: number): string | null {
    const c = this.codes[i]!;
    return c === NULL_CODE ? null : this.words[c]!;
  }
}

class TextColumn implements Column {
  /** Row i is bytes starts[i]..starts[i+1] of `utf8`; null where nulls[i]. */
  constructor(private readonly utf8: Buffer, private readonly starts: Uint32Array, private readonly nulls: Uint8Array) {}
  get(i: number): string | null {
    return this.nulls[i] ? null : this.utf8.toString('utf8', this.starts[i]!, this.starts[i + 1]!);
  }
}

/** Any other mix of types: the values as they came. */
class PlainColumn implements Column {
  constructor(private readonly values: readonly unknown[]) {}
  get(i: number): unknown {
    return this.values[i] ?? null;
  }
}

/** Packs `values` taken in `order` into the most compact column their types allow. */
export function packColumn(values: readonly unknown[], order: ArrayLike<number>): Column {
  const n = order.length;
  let kinds = 0; // bit 1 number, 2 boolean, 4 string, 8 other
  const words = new Map<string, number>();
  for (let j = 0; j < n; j++) {
    const v = values[order[j]!];
    if (v === null || v === undefined) continue;
    if (typeof v === 'number') kinds |= 1;
    else if (typeof v === 'boolean') kinds |= 2;
    else if (typeof v === 'string') {
      kinds |= 4;
      if (words.size <= DICTIONARY_MAX && !words.has(v)) words.set(v, words.size);
    } else kinds |= 8;
  }
  const at = (j: number) => values[order[j]!];
  if (kinds === 1 || kinds === 0) {
    const out = new Float64Array(n);
    const nulls = new Uint8Array(n);
    for (let j = 0; j < n; j++) {
      const v = at(j);
      if (v === null || v === undefined) nulls[j] = 1;
      else out[j] = v as number;
    }
    return new NumberColumn(out, nulls);
  }
  if (kinds === 2) {
    const out = new Uint8Array(n);
    for (let j = 0; j < n; j++) {
      const v = at(j);
      out[j] = v === null || v === undefined ? 2 : v ? 1 : 0;
    }
    return new BooleanColumn(out);
  }
  if (kinds === 4 && words.size <= DICTIONARY_MAX) {
    const codes = new Uint16Array(n);
    for (let j = 0; j < n; j++) {
      const v = at(j);
      codes[j] = v === null || v === undefined ? NULL_CODE : words.get(v as string)!;
    }
    return new DictionaryColumn(codes, [...words.keys()]);
  }
  if (kinds === 4) {
    const nulls = new Uint8Array(n);
    const starts = new Uint32Array(n + 1);
    let bytes = 0;
    for (let j = 0; j < n; j++) {
      const v = at(j);
      if (v === null || v === undefined) nulls[j] = 1;
      else bytes += Buffer.byteLength(v as string, 'utf8');
      starts[j + 1] = bytes;
    }
    const utf8 = Buffer.allocUnsafeSlow(bytes);
    for (let j = 0; j < n; j++) if (!nulls[j]) utf8.write(at(j) as string, starts[j]!, 'utf8');
    return new TextColumn(utf8, starts, nulls);
  }
  return new PlainColumn(Array.from({ length: n }, (_, j) => at(j) ?? null));
}

/** Rows grouped by a numeric key (a UPRN), in the query's order within each key; `R` is the row without the key. */
export class RowsByNumber<R = Record<string, unknown>> {
  private constructor(
    private readonly keys: Float64Array,
    private readonly names: readonly string[],
    private readonly columns: readonly Column[],
  ) {}

  /**
   * Runs `sql/<name>.sql` (its `keyColumn` a number, e.g. `uprn::DOUBLE`) and packs every
   * other column, rows sorted by key (stably: each key's rows keep the query's order).
   */
  static async load<N extends QueryName, K extends keyof Row<N> & string>(store: StoreReads, name: N, keyColumn: K): Promise<RowsByNumber<Omit<Row<N>, K>>> {
    return RowsByNumber.fromColumns(await store.columns(name) as Record<string, unknown[]>, keyColumn);
  }

  static fromColumns<R = Record<string, unknown>>(cols: Record<string, readonly unknown[]>, keyColumn: string): RowsByNumber<R> {
    const raw = cols[keyColumn];
    if (!raw) throw new Error(`no key column ${keyColumn}`);
    const key = Float64Array.from(raw, (v) => (v === null || v === undefined ? NaN : Number(v)));
    const order = Uint32Array.from({ length: key.length }, (_, i) => i)
      .filter((i) => !Number.isNaN(key[i]!))
      .sort((a, b) => key[a]! - key[b]! || a - b);
    const names = Object.keys(cols).filter((c) => c !== keyColumn);
    return new RowsByNumber<R>(
      Float64Array.from(order, (i) => key[i]!),
      names,
      names.map((c) => packColumn(cols[c]!, order)),
    );
  }

  /** The rows of `key`, in the query's order (empty when it has none). */
  get(key: number): R[] {
    const lo = lowerBound(this.keys, key);
    const out: R[] = [];
    for (let i = lo; i < this.keys.length && this.keys[i] === key; i++) out.push(this.row(i));
    return out;
  }

  get size(): number {
    return this.keys.length;
  }

  private row(i: number): R {
    const r: Record<string, unknown> = {};
    for (let c = 0; c < this.names.length; c++) r[this.names[c]!] = this.columns[c]!.get(i);
    return r as R;
  }
}

/** Rows grouped by a text key (a canonical postcode; "sector:BS1 4:D"), found by binary search over the sorted keys. */
export class RowsByText<R = Record<string, unknown>> {
  private constructor(
    /** The keys, sorted by JavaScript's `<` (stably), packed (not millions of strings for the GC to mark). */
    private readonly keys: Column,
    private readonly count: number,
    /** Row index of each sorted key. */
    private readonly rowOf: Uint32Array,
    private readonly names: readonly string[],
    private readonly columns: readonly Column[],
  ) {}

  /**
   * Runs `sql/<name>.sql` and holds every row by its `keyColumn` (kept in the rows), each key's
   * rows in the query's order; with `unique`, a key that appears twice is an error.
   */
  static async load<N extends QueryName>(store: StoreReads, name: N, keyColumn: keyof Row<N> & string, opts: { unique?: boolean } = {}): Promise<RowsByText<Row<N>>> {
    return RowsByText.fromColumns(await store.columns(name) as Record<string, unknown[]>, keyColumn, opts);
  }

  static fromColumns<R = Record<string, unknown>>(cols: Record<string, readonly unknown[]>, keyColumn: string, opts: { unique?: boolean } = {}): RowsByText<R> {
    const raw = cols[keyColumn];
    if (!raw) throw new Error(`no key column ${keyColumn}`);
    const all = Uint32Array.from({ length: raw.length }, (_, i) => i);
    const names = Object.keys(cols);
    const columns = names.map((c) => packColumn(cols[c]!, all));
    const order = all
      .filter((i) => typeof raw[i] === 'string')
      .sort((a, b) => (raw[a]! < raw[b]! ? -1 : raw[a]! > raw[b]! ? 1 : a - b));
    if (opts.unique) {
      for (let j = 1; j < order.length; j++) if (raw[order[j]!] === raw[order[j - 1]!]) throw new Error(`${keyColumn} ${String(raw[order[j]!])} appears twice`);
    }
    return new RowsByText<R>(packColumn(raw, order), order.length, order, names, columns);
  }

  /** The rows of `key`, in the query's order (empty when it has none). */
  get(key: string): R[] {
    const lo = partitionPoint(this.count, (j) => (this.keys.get(j) as string) < key);
    const out: R[] = [];
    for (let j = lo; j < this.count && this.keys.get(j) === key; j++) out.push(this.row(this.rowOf[j]!));
    return out;
  }

  /** The first row of `key`, or undefined. */
  first(key: string): R | undefined {
    return this.get(key)[0];
  }

  get size(): number {
    return this.count;
  }

  private row(i: number): R {
    const r: Record<string, unknown> = {};
    for (let c = 0; c < this.names.length; c++) r[this.names[c]!] = this.columns[c]!.get(i);
    return r as R;
  }
}
