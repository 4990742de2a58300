import { DuckDBInstance } from '@duckdb/node-api';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { lowerBound } from '../../schemas/sorted-search.ts';
import { storeSql } from '../store/store.ts';

/** A planning or flood feature containing a UPRN (a `uprn_designations` row without the uprn). */
export interface DesignationFeature {
  dataset: string;
  entity: number | null;
  reference: string | null;
  name: string | null;
  flood_risk_level: number | null;
}

export const DESIGNATIONS_TABLE_FILE = 'uprn_designations.parquet';

/**
 * A build's `uprn_designations` held in memory for point lookups: rows sorted by UPRN as two
 * typed arrays (UPRN, feature number) and each distinct feature once, so a lookup is a binary
 * search and a short walk, with no SQL round trip on the request path. At 1M addresses the
 * table is 277,518 rows over 17 features: about 3 MB.
 */
export class DesignationIndex {
  constructor(
    private readonly uprns: Float64Array,
    private readonly featureOf: Int32Array,
    private readonly features: readonly DesignationFeature[],
  ) {}

  get rows(): number {
    return this.uprns.length;
  }

  /** Every feature containing `uprn`, in the table's order (dataset, entity, reference). */
  get(uprn: number): DesignationFeature[] {
    const u = this.uprns;
    const lo = lowerBound(u, uprn);
    const out: DesignationFeature[] = [];
    for (let i = lo; i < u.length && u[i] === uprn; i++) out.push(this.features[this.featureOf[i]!]!);
    return out;
  }
}

/**
 * Reads the build's `uprn_designations.parquet` into a DesignationIndex, streaming it chunk by
 * chunk on a DuckDB instance of its own that is closed afterwards. Undefined when the build
 * has no such table (a build older than the table).
 */
export async function loadDesignations(buildDir: string): Promise<DesignationIndex | undefined> {
  const path = join(buildDir, DESIGNATIONS_TABLE_FILE);
  if (!existsSync(path)) return undefined;
  const db = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await db.connect();
  try {
    const n = Number((await conn.runAndReadAll('SELECT count(*)::BIGINT AS n FROM read_parquet($path)', { path })).getRowObjectsJS()[0]!.n);
    const uprns = new Float64Array(n);
    const featureOf = new Int32Array(n);
    const features: DesignationFeature[] = [];
    const ids = new Map<string, number>();
    const result = await conn.stream(storeSql('designations_all'), { path });
    let i = 0;
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      const cols = [0, 1, 2, 3, 4, 5].map((c) => chunk.getColumnVector(c));
      for (let r = 0; r < chunk.rowCount; r++, i++) {
        const [uprn, dataset, entity, reference, name, level] = cols.map((v) => v.getItem(r));
        const f: DesignationFeature = {
          dataset: String(dataset),
          entity: entity === null ? null : Number(entity),
          reference: reference === null ? null : String(reference),
          name: name === null ? null : String(name),
          flood_risk_level: level === null ? null : Number(level),
        };
        const key = JSON.stringify(f);
        let id = ids.get(key);
        if (id === undefined) {
          id = features.length;
          ids.set(key, id);
          features.push(f);
        }
        uprns[i] = Number(uprn);
        featureOf[i] = id;
      }
    }
    if (i !== n) throw new Error(`${path}: read ${i} of ${n} rows`);
    return new DesignationIndex(uprns, featureOf, features);
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}
