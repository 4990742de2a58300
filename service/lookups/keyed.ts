import { LRUCache } from 'lru-cache';
import type { KeyedRowsFile } from '../../lib/files/keyed-rows-file.ts';
import type { QueryName, Row } from '../store/queries.ts';
import type { StoreReads } from '../store/store.ts';

/** The queries KeyedRows loads: each has a text `key` column. */
type KeyedQuery = { [N in QueryName]: Row<N> extends { key: string } ? N : never }[QueryName];

/**
 * A per-area table as the endpoints read it: a key's rows ("level:code"), in the query's order,
 * without the key. Held in the heap (KeyedRows, a build published before the ETL wrote the
 * area files) or read where it lies (AreaRowsFile).
 */
export interface AreaTable<R> {
  /** The rows of `key`, in the query's order (empty when the key has none). */
  get(key: string): readonly R[];
  /** The first row of `key`. */
  first(key: string): R | undefined;
}

/**
 * A per-area table held in the heap, grouped by its `key` column ("level:code"): the
 * area lookups read several such rows per request, and each DuckDB point query costs about a
 * millisecond of binding, probing and materialising (measured with bench/service-time.ts), so
 * a request that made six of them spent its time there. Loaded once when the build opens, in
 * the row order the query gives, its values decoded by its declaration (service/store/queries.ts).
 */
export class KeyedRows<R> implements AreaTable<R> {
  private constructor(private readonly byKey: ReadonlyMap<string, R[]>) {}

  /** A table the build lacks. */
  static empty<R>(): KeyedRows<R> {
    return new KeyedRows<R>(new Map());
  }

  /** Runs `sql/<name>.sql` (every row, with a `key` column) and groups the rows by key, in order. */
  static async load<N extends KeyedQuery>(store: StoreReads, name: N): Promise<KeyedRows<Omit<Row<N>, 'key'>>> {
    const byKey = new Map<string, Omit<Row<N>, 'key'>[]>();
    for (const r of await store.rows(name)) {
      const { key, ...row } = r as { key: string };
      const rows = byKey.get(key) as Omit<Row<N>, 'key'>[] | undefined;
      if (rows) rows.push(row as Omit<Row<N>, 'key'>);
      else byKey.set(key, [row as Omit<Row<N>, 'key'>]);
    }
    return new KeyedRows(byKey);
  }

  /** The rows of `key`, in the query's order (empty when the key has none). */
  get(key: string): readonly R[] {
    return this.byKey.get(key) ?? [];
  }

  /** The first row of `key`. */
  first(key: string): R | undefined {
    return this.byKey.get(key)?.[0];
  }

  get keys(): number {
    return this.byKey.size;
  }
}

/** A key with at least this many rows (an area's index series: hundreds of months) is kept decoded. */
const KEEP_DECODED_FROM = 64;
/** How many decoded rows each table keeps (about 5 MB of an index series' rows). */
const DECODED_ROWS = 32_768;

/**
 * A per-area table read from its ETL-written keyed-rows file through the build's page cache
 * (ADR 0015 step 6): the file's rows carry their key, which the heap's leave out, so it is
 * taken off here and an endpoint sees the same rows either way. A long run of rows (an area's
 * monthly index, 300-odd rows: 0.3-0.6 ms to decode at 1M, against a map probe in the heap) is
 * kept decoded in a small LRU, as the heap's table would hand back the same array; short runs
 * are decoded per call. Rows handed out are shared and never changed, as the heap's are.
 */
export class AreaRowsFile<R> implements AreaTable<R> {
  private readonly decoded = new LRUCache<string, readonly R[]>({ maxSize: DECODED_ROWS, sizeCalculation: (rows) => rows.length });

  constructor(private readonly file: KeyedRowsFile<R & { key: string }>) {}

  get(key: string): readonly R[] {
    const kept = this.decoded.get(key);
    if (kept) return kept;
    const rows = this.file.get(key).map(withoutKey);
    if (rows.length >= KEEP_DECODED_FROM) this.decoded.set(key, rows);
    return rows;
  }

  first(key: string): R | undefined {
    const kept = this.decoded.get(key);
    if (kept) return kept[0];
    const row = this.file.first(key);
    return row === undefined ? undefined : withoutKey(row);
  }
}

function withoutKey<R>(row: R & { key: string }): R {
  const { key: _key, ...rest } = row;
  return rest as R;
}
