import { DuckDBInstance, JSDuckDBValueConverter } from '@duckdb/node-api';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { lowerBound } from '../../schemas/sorted-search.ts';
import type { BlockCache } from '../../lib/files/block-file.ts';
import { DESIGNATIONS_FILE } from '../../lib/files/designations-file.ts';
import type { KeyedRowsFile } from '../../lib/files/keyed-rows-file.ts';
import type { BuildInfo } from '../build/source.ts';
import { openServingFile } from '../lookups/lookup-files.ts';
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

/** The features containing each UPRN, as the risk and planning endpoints read them. */
export interface Designations {
  /** Every feature containing `uprn`, in the table's order (dataset, entity, reference). */
  get(uprn: number): DesignationFeature[];
  close(): void;
}

/**
 * A build's designations: its designations.rows read where it lies on `pages` when its manifest
 * lists the file (lib/files/designations-file.ts), else, for a build published before it, the
 * table loaded into the heap (`loadDesignations`); undefined when the build has neither. A
 * listed file that is missing, cut short or not the table's throws a `LookupFileError` naming it.
 */
export async function openDesignations(build: BuildInfo, pages: BlockCache): Promise<Designations | undefined> {
  const file = openServingFile<DesignationRow>(build, DESIGNATIONS_FILE, pages, 'designations');
  return file ? new FileDesignations(file) : loadDesignations(build.dir);
}

type DesignationRow = DesignationFeature & { uprn: number };

/** The designations file read where it lies: a UPRN's rows are its features, in the table's order. */
export class FileDesignations implements Designations {
  constructor(private readonly file: KeyedRowsFile<DesignationRow>) {}

  get(uprn: number): DesignationFeature[] {
    return this.file.get(uprn).map(({ uprn: _, ...f }) => f);
  }

  close(): void {
    this.file.close();
  }
}

/**
 * A build's `uprn_designations` held in memory for point lookups: rows sorted by UPRN as two
 * typed arrays (UPRN, feature number) and each distinct feature once, so a lookup is a binary
 * search and a short walk, with no SQL round trip on the request path. At 1M addresses the
 * table is 277,518 rows over 17 features: about 3 MB.
 */
export class DesignationIndex implements Designations {
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

  close(): void {}
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
