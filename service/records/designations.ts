import { DuckDBInstance, JSDuckDBValueConverter } from '@duckdb/node-api';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { lowerBound } from '../../schemas/sorted-search.ts';
import { decodeColumns } from '../store/decode.ts';
import { QUERIES } from '../store/queries.ts';
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
    const names = result.columnNames();
    let i = 0;
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      // Each chunk decoded by the query's declaration, as BuildStore decodes a whole result.
      const c = decodeColumns('designations_all', QUERIES.designations_all, names, chunk.convertColumns(JSDuckDBValueConverter));
      for (let r = 0; r < chunk.rowCount; r++, i++) {
        const f: DesignationFeature = {
          dataset: c.dataset[r]!, entity: c.entity[r]!, reference: c.reference[r]!, name: c.name[r]!, flood_risk_level: c.flood_risk_level[r]!,
        };
        const key = JSON.stringify(f);
        let id = ids.get(key);
        if (id === undefined) {
          id = features.length;
          ids.set(key, id);
          features.push(f);
        }
        uprns[i] = c.uprn[r]!;
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
