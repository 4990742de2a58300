/**
 * DuckDB's values (the JS form of @duckdb/node-api: BIGINT as bigint, DATE as Date) decoded
 * per declared column kind (service/store/queries.ts) at the store boundary, so the service
 * reads typed values instead of converting `unknown` itself (docs/adr/0014-typed-store-reads.md).
 * A column missing from the result, a column not declared, or a value not of its kind is an
 * Error naming the query and the column; a NULL stays null where the kind is nullable (`…?`)
 * and is an error where it is not. Nothing is coerced to 0 or ''.
 */

/** What a column holds, as the service reads it. */
export type BaseKind = 'string' | 'int' | 'float' | 'bigint-as-string' | 'date' | 'bool';
/** A kind; with `?` the column may be NULL (read as null). */
export type Kind = BaseKind | `${BaseKind}?`;

interface BaseValue {
  /** VARCHAR. */
  string: string;
  /** Any integer type within ±2^53 (BIGINT and HUGEINT as numbers). */
  int: number;
  /** DOUBLE or FLOAT (NaN and infinities as they are). */
  float: number;
  /** BIGINT or HUGEINT as its decimal text: a key (a UPRN) that must not lose digits, or a count answers give as text. */
  'bigint-as-string': string;
  /** DATE, or VARCHAR holding an ISO date: 'YYYY-MM-DD'. */
  date: string;
  /** BOOLEAN. */
  bool: boolean;
}

export type ValueOfKind<K extends Kind> = K extends `${infer B extends BaseKind}?` ? BaseValue[B] | null : K extends BaseKind ? BaseValue[K] : never;

export type ColumnKinds = Readonly<Record<string, Kind>>;

/** A query's result columns: declared kinds, plus optionally a family of columns named by a prefix (`has_…`). */
export interface ResultDecl {
  columns: ColumnKinds;
  /** Columns the SQL selects by pattern (`COLUMNS('^has_')`): every result column with this prefix, of this kind. */
  prefixed?: { prefix: string; kind: Kind };
  /** Declared (nullable) columns a build published before they existed lacks: read as null there. */
  absentInOlderBuilds?: readonly string[];
  /** `SELECT *` over a published table: result columns not declared are left out, not an error. */
  extraColumns?: 'ignore';
}

type PrefixedRow<D extends ResultDecl> = D['prefixed'] extends { prefix: infer P extends string; kind: infer K extends Kind } ? Record<`${P}${string}`, ValueOfKind<K>> : unknown;

/** One decoded row of a query declared as `D`. */
export type RowOf<D extends ResultDecl> = { [C in keyof D['columns']]: ValueOfKind<D['columns'][C]> } & PrefixedRow<D>;
/** The decoded columns of a query declared as `D`. */
export type ColumnsOf<D extends ResultDecl> = { [C in keyof D['columns']]: ValueOfKind<D['columns'][C]>[] } & { [C in keyof PrefixedRow<D>]: PrefixedRow<D>[C][] };

export class StoreDecodeError extends Error {
  constructor(readonly query: string, readonly column: string, detail: string) {
    super(`store query ${query}, column ${column}: ${detail}`);
    this.name = 'StoreDecodeError';
  }
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const MAX_INT = BigInt(Number.MAX_SAFE_INTEGER);

function describe(v: unknown): string {
  if (v instanceof Date) return `Date ${Number.isNaN(v.getTime()) ? 'invalid' : v.toISOString()}`;
  const text = typeof v === 'bigint' ? `${v}n` : typeof v === 'string' ? JSON.stringify(v) : String(v);
  return `${typeof v} ${text.length > 40 ? `${text.slice(0, 40)}…` : text}`;
}

/** Decodes one column's values in place (the array DuckDB's reader made for this call). */
function decodeColumn(query: string, column: string, kind: Kind, values: unknown[]): unknown[] {
  const nullable = kind.endsWith('?');
  const base = (nullable ? kind.slice(0, -1) : kind) as BaseKind;
  const bad = (v: unknown, i: number): never => {
    throw new StoreDecodeError(query, column, v === null || v === undefined
      ? `NULL in row ${i}, declared ${kind} (not nullable)`
      : `${describe(v)} in row ${i} is not ${base}`);
  };
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) {
      if (!nullable) bad(v, i);
      values[i] = null;
      continue;
    }
    switch (base) {
      case 'string':
        if (typeof v !== 'string') bad(v, i);
        break;
      case 'float':
        if (typeof v !== 'number') bad(v, i);
        break;
      case 'int':
        if (typeof v === 'number') {
          if (!Number.isInteger(v)) bad(v, i);
        } else if (typeof v === 'bigint' && v <= MAX_INT && v >= -MAX_INT) values[i] = Number(v);
        else bad(v, i);
        break;
      case 'bigint-as-string':
        if (typeof v !== 'bigint') bad(v, i);
        values[i] = String(v);
        break;
      case 'date':
        if (v instanceof Date && !Number.isNaN(v.getTime())) values[i] = v.toISOString().slice(0, 10);
        else if (typeof v !== 'string' || !ISO_DATE.test(v)) bad(v, i);
        break;
      case 'bool':
        if (typeof v !== 'boolean') bad(v, i);
        break;
    }
  }
  return values;
}

/**
 * Decodes a result given as columns (names in result order, each column's JS values) by the
 * declaration: the declared columns (and prefixed family) exactly, each value of its kind.
 */
export function decodeColumns<D extends ResultDecl>(query: string, decl: D, names: readonly string[], values: unknown[][]): ColumnsOf<D> {
  const out: Record<string, unknown[]> = {};
  const n = values[0]?.length ?? 0;
  names.forEach((name, c) => {
    const kind = decl.columns[name] ?? (decl.prefixed && name.startsWith(decl.prefixed.prefix) ? decl.prefixed.kind : undefined);
    if (kind === undefined) {
      if (decl.extraColumns === 'ignore') return;
      throw new StoreDecodeError(query, name, 'in the result but not declared');
    }
    // DuckDB's reader gives no column arrays at all for an empty result.
    out[name] = decodeColumn(query, name, kind, values[c] ?? []);
  });
  for (const [name, kind] of Object.entries(decl.columns)) {
    if (name in out) continue;
    if (decl.absentInOlderBuilds?.includes(name) && kind.endsWith('?')) out[name] = new Array<null>(n).fill(null);
    else throw new StoreDecodeError(query, name, `declared ${kind} but not in the result`);
  }
  return out as ColumnsOf<D>;
}

/** The same result as row objects (keys in the result's column order). */
export function rowsFromColumns<R>(cols: object): R[] {
  const c = cols as Record<string, unknown[]>;
  const names = Object.keys(c);
  const n = names.length ? c[names[0]!]!.length : 0;
  const rows = new Array<R>(n);
  for (let i = 0; i < n; i++) {
    const r: Record<string, unknown> = {};
    for (const name of names) r[name] = c[name]![i];
    rows[i] = r as R;
  }
  return rows;
}
