import type { BuildStore } from '../store/store.ts';

export type Row = Record<string, unknown>;

/**
 * A small per-build table held in the heap, grouped by its `key` column ("level:code"): the
 * area lookups read several such rows per request, and each DuckDB point query costs about a
 * millisecond of binding, probing and materialising (measured with bench/service-time.ts), so
 * a request that made six of them spent its time there. Loaded once when the build opens, in
 * the row order and JSON form the query gives (BIGINT as string), so answers are unchanged.
 */
export class KeyedRows {
  private constructor(private readonly byKey: ReadonlyMap<string, Row[]>) {}

  /** A table the build lacks. */
  static empty(): KeyedRows {
    return new KeyedRows(new Map());
  }

  /** Runs `sql/<name>.sql` (every row, with a `key` column) and groups the rows by key, in order. */
  static async load(store: BuildStore, name: string): Promise<KeyedRows> {
    const byKey = new Map<string, Row[]>();
    for (const row of await store.query(name)) {
      const key = String(row.key);
      delete row.key;
      const rows = byKey.get(key);
      if (rows) rows.push(row);
      else byKey.set(key, [row]);
    }
    return new KeyedRows(byKey);
  }

  /** The rows of `key`, in the query's order (empty when the key has none). */
  get(key: string): readonly Row[] {
    return this.byKey.get(key) ?? [];
  }

  /** The first row of `key`. */
  first(key: string): Row | undefined {
    return this.byKey.get(key)?.[0];
  }

  get keys(): number {
    return this.byKey.size;
  }
}
