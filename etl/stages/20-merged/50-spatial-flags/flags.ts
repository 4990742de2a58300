import type { DuckDBConnection } from '@duckdb/node-api';
import type { PlanningGeometry } from '../../../../schemas/sources/planning.ts';
import { loadRows, type StageColumn } from '../../../pipeline/load-rows.ts';
import { sqlFolder } from '../../../pipeline/sql.ts';
import { buildIndex } from '../../../../lib/geo/spatial-index.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

/** Dataset slugs behind each flag (planning.data.gov.uk names). */
export const FLOOD_DATASET = 'flood-risk-zone';
export const CONSERVATION_DATASET = 'conservation-area';
export const ARTICLE_4_DATASET = 'article-4-direction-area';
export const LISTED_DATASETS = ['listed-building', 'listed-building-outline'] as const;

export interface FlagOptions {
  /** ISO date (YYYY-MM-DD): features whose end date is on or before it are not used. */
  today: string;
}

/** Figures for the build manifest. */
export interface FlagCounts {
  /** Points with coordinates run through the index (rows, so a repeated UPRN counts twice). */
  points: number;
  /** Distinct UPRNs in the points table (rows of `uprn_flags`). */
  uprns: number;
  /** UPRNs with coordinates. */
  located: number;
  /**
   * Located UPRNs inside the layers' coverage (country England), so with flags; the others
   * (no coordinates, or in Wales, Scotland or an unknown country) have NULL flags.
   */
  covered: number;
  /** Features in force that were indexed, in total and by dataset. */
  features: number;
  features_by_dataset: Record<string, number>;
  /** Rows of `uprn_designations`: (point, containing feature) pairs. */
  designations: number;
  /** UPRNs with each flag true. */
  flagged: {
    flood_zone_2: number;
    flood_zone_3: number;
    conservation_area: number;
    article_4: number;
    listed_building: number;
  };
}

interface Feature {
  dataset: string;
  entity: bigint | null;
  reference: string | null;
  name: string | null;
  flood_risk_level: number | null;
  geometry: PlanningGeometry;
}

interface Designation {
  uprn: bigint;
  feature: Feature;
}

const DESIGNATION_COLUMNS: StageColumn<Designation>[] = [
  { name: 'uprn', type: 'BIGINT', get: (d) => d.uprn },
  { name: 'dataset', type: 'VARCHAR', get: (d) => d.feature.dataset },
  { name: 'entity', type: 'BIGINT', get: (d) => d.feature.entity },
  { name: 'reference', type: 'VARCHAR', get: (d) => d.feature.reference },
  { name: 'name', type: 'VARCHAR', get: (d) => d.feature.name },
  { name: 'flood_risk_level', type: 'INTEGER', get: (d) => d.feature.flood_risk_level },
];

const TABLE = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * (uprn, feature) pairs held in typed arrays while the points stream: DuckDB ends a streaming
 * result when anything else (an appender flush included) runs on the same connection, so the
 * designations are appended only after the last chunk has been read.
 */
class HitBuffer {
  uprns = new BigInt64Array(1 << 16);
  features = new Int32Array(1 << 16);
  length = 0;

  push(uprn: bigint, feature: number): void {
    if (this.length === this.uprns.length) {
      const u = new BigInt64Array(this.length * 2);
      u.set(this.uprns);
      this.uprns = u;
      const f = new Int32Array(this.length * 2);
      f.set(this.features);
      this.features = f;
    }
    this.uprns[this.length] = uprn;
    this.features[this.length] = feature;
    this.length++;
  }

  *rows(features: readonly Feature[]): Generator<Designation> {
    for (let i = 0; i < this.length; i++) yield { uprn: this.uprns[i]!, feature: features[this.features[i]!]! };
  }
}

async function tableExists(conn: DuckDBConnection, name: string): Promise<boolean> {
  const r = await conn.runAndReadAll('SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name = $name', { name });
  return Number(r.getRowObjectsJS()[0]?.n ?? 0) > 0;
}

async function featuresInForce(conn: DuckDBConnection, today: string): Promise<Feature[]> {
  const rows = (await conn.runAndReadAll(sql.text('features_in_force'), { today })).getRowObjectsJS();
  return rows.map((r) => {
    const what = `stg_planning: geometry of ${String(r.dataset)} ${String(r.entity ?? r.reference)}`;
    let geometry: PlanningGeometry;
    try {
      geometry = JSON.parse(String(r.geometry)) as PlanningGeometry;
    } catch {
      throw new Error(`${what} is not JSON`);
    }
    // The reader stages polygons only; anything else means the table was not made by it.
    if (geometry?.type !== 'Polygon' && geometry?.type !== 'MultiPolygon') throw new Error(`${what} is not a Polygon or MultiPolygon`);
    return {
      dataset: String(r.dataset),
      entity: typeof r.entity === 'bigint' ? r.entity : null,
      reference: r.reference == null ? null : String(r.reference),
      name: r.name == null ? null : String(r.name),
      flood_risk_level: r.flood_risk_level == null ? null : Number(r.flood_risk_level),
      geometry,
    };
  });
}

/**
 * Computes every UPRN's planning and flood flags once, at ETL time, from the staged planning
 * layers (`stg_planning`) and a points table (uprn BIGINT, lat DOUBLE, lng DOUBLE, country VARCHAR:
 * England, Wales or Scotland; only England's UPRNs get flags, the layers' coverage).
 *
 * Creates `uprn_designations` (uprn, dataset, entity, reference, name, flood_risk_level: one
 * row per point per containing feature, for the risks and constraints endpoints) and
 * `uprn_flags` (one row per UPRN: flood_zone 1..3, flood_zone_2, flood_zone_3,
 * conservation_area, article_4, listed_building). Points are streamed out of DuckDB chunk by
 * chunk; only the hits are held, in typed arrays. Throws if `stg_planning` is missing: flags
 * computed without any layer would claim "not in a flood zone" for every property.
 */
export async function computeFlags(conn: DuckDBConnection, pointsTable: string, opts: FlagOptions): Promise<FlagCounts> {
  if (!TABLE.test(pointsTable)) throw new Error(`computeFlags: not a plain table name: ${pointsTable}`);
  if (!ISO_DATE.test(opts.today)) throw new Error(`computeFlags: today must be YYYY-MM-DD, got ${opts.today}`);
  if (!(await tableExists(conn, 'stg_planning'))) {
    throw new Error('computeFlags: table stg_planning not found; stage the planning layers first');
  }

  const features = await featuresInForce(conn, opts.today);
  const index = buildIndex(features);
  // A fixed name for the points lets the SQL live in files; casts make the column types known.
  await conn.run(`CREATE OR REPLACE TEMP VIEW spatial_points AS SELECT uprn::BIGINT AS uprn, lat::DOUBLE AS lat, lng::DOUBLE AS lng, country::VARCHAR AS country FROM ${pointsTable}`);
  try {
    const hits = new HitBuffer();
    let points = 0;
    const result = await conn.stream(sql.text('located_points'));
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      const uprns = chunk.getColumnVector(0);
      const lngs = chunk.getColumnVector(1);
      const lats = chunk.getColumnVector(2);
      points += chunk.rowCount;
      for (let i = 0; i < chunk.rowCount; i++) {
        const found = index.queryIds(lngs.getItem(i) as number, lats.getItem(i) as number);
        if (found.length === 0) continue;
        const uprn = uprns.getItem(i) as bigint;
        for (const f of found) hits.push(uprn, f);
      }
    }
    const designations = await loadRows(conn, 'uprn_designations', DESIGNATION_COLUMNS, hits.rows(features));
    await conn.run(sql.text('uprn_flags'));

    const c = (await conn.runAndReadAll(sql.text('flag_counts'))).getRowObjectsJS()[0]!;
    const byDataset: Record<string, number> = {};
    for (const f of features) byDataset[f.dataset] = (byDataset[f.dataset] ?? 0) + 1;
    return {
      points,
      uprns: Number(c.uprns),
      located: Number(c.located),
      covered: Number(c.covered),
      features: features.length,
      features_by_dataset: byDataset,
      designations,
      flagged: {
        flood_zone_2: Number(c.flood_zone_2),
        flood_zone_3: Number(c.flood_zone_3),
        conservation_area: Number(c.conservation_area),
        article_4: Number(c.article_4),
        listed_building: Number(c.listed_building),
      },
    };
  } finally {
    await conn.run('DROP VIEW IF EXISTS spatial_points');
  }
}
