import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RejectLog } from '../../../etl/sources/rejects.ts';
import { computeFlags, type FlagCounts } from '../../../etl/stages/20-merged/50-spatial-flags/flags.ts';
import { loadRows } from '../../../etl/pipeline/load-rows.ts';
import { planning } from '../../../etl/sources/planning/source.ts';
import { readPlanningGeoJson } from '../../../etl/sources/planning/read.ts';
import { tempDir, writeFixture } from '../../support/tmp.ts';

type Ring = [number, number][];
const box = (x0: number, y0: number, x1: number, y1: number): Ring => [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]];

function feature(dataset: string, entity: number, geometry: object, extra: Record<string, string> = {}) {
  return {
    type: 'Feature',
    geometry,
    properties: { dataset, entity: String(entity), reference: `R${entity}`, name: `${dataset} ${entity}`, 'end-date': '', ...extra },
  };
}
const polygon = (...rings: Ring[]) => ({ type: 'Polygon', coordinates: rings });

// Around Bristol, in degrees. Flood zones nest as published: Zone 3 inside Zone 2.
const LAYERS = [
  feature('flood-risk-zone', 1, polygon(box(-2.6, 51.45, -2.58, 51.47)), { 'flood-risk-level': '2', 'flood-risk-type': 'river' }),
  feature('flood-risk-zone', 2, polygon(box(-2.595, 51.455, -2.585, 51.465)), { 'flood-risk-level': '3' }),
  feature('flood-risk-zone', 3, polygon(box(-2.5, 51.45, -2.49, 51.46)), { 'flood-risk-level': '3' }), // Zone 3 with no Zone 2 drawn round it
  feature('conservation-area', 10, polygon(box(-2.62, 51.44, -2.56, 51.48), box(-2.575, 51.445, -2.565, 51.455))),
  feature('article-4-direction-area', 20, { type: 'MultiPolygon', coordinates: [[box(-2.7, 51.4, -2.69, 51.41)], [box(-2.68, 51.4, -2.67, 51.41)]] }),
  feature('article-4-direction-area', 21, polygon(box(-2.66, 51.4, -2.65, 51.41)), { 'end-date': '2020-01-01' }), // ended
  feature('article-4-direction-area', 22, polygon(box(-2.64, 51.4, -2.63, 51.41)), { 'end-date': '2026' }), // in force to the end of 2026
  feature('article-4-direction-area', 23, polygon(box(-2.62, 51.4, -2.61, 51.41)), { 'end-date': '2026-11-21' }), // ends today
  feature('listed-building-outline', 30, polygon(box(-2.59, 51.46, -2.589, 51.461))),
  feature('green-belt', 40, polygon(box(-2.0, 51.0, -1.9, 51.1))),
];
const TODAY = '2026-11-21';

// [uprn, lng, lat]; lng/lat null for a UPRN without coordinates.
const POINTS: [number, number | null, number | null][] = [
  [1, -2.5895, 51.4605], // Zone 2 and 3, conservation area, listed outline
  [2, -2.599, 51.451], // Zone 2 only, conservation area
  [3, -2.57, 51.45], // inside the conservation area's hole
  [4, -2.575, 51.45], // on the hole's edge: in the conservation area
  [5, -2.495, 51.455], // a Zone 3 feature alone
  [6, -2.695, 51.405], // article 4, first part
  [7, -2.675, 51.405], // article 4, second part
  [8, -2.655, 51.405], // article 4 that ended in 2020
  [9, -2.635, 51.405], // article 4 ending '2026'
  [10, -2.58, 51.46], // on Zone 2's east edge, in the conservation area
  [11, null, null], // no coordinates
  [12, 0, 0], // nowhere near
  [13, -2.615, 51.405], // article 4 ending today
  [14, -1.95, 51.05], // green belt only
];

let instance: DuckDBInstance;
let conn: DuckDBConnection;
let counts: FlagCounts;

async function stagePlanning(c: DuckDBConnection, features: object[]): Promise<void> {
  const { dir, cleanup } = tempDir();
  try {
    const path = writeFixture(dir, 'layers.geojson', JSON.stringify({ type: 'FeatureCollection', features }));
    const rejects = new RejectLog();
    await loadRows(c, 'stg_planning', [...planning.columns, { name: '_file_no', type: 'INTEGER', get: () => 1 }], readPlanningGeoJson(path, rejects));
    expect(rejects.total).toBe(0);
  } finally {
    cleanup();
  }
}

/** The points as a table; every one in England (the layers' coverage) unless `countries` says otherwise by UPRN. */
async function loadPoints(c: DuckDBConnection, table: string, points: typeof POINTS, countries: Record<number, string | null> = {}): Promise<void> {
  await c.run(`CREATE OR REPLACE TABLE ${table} (uprn BIGINT, lat DOUBLE, lng DOUBLE)`);
  const a = await c.createAppender(table);
  for (const [uprn, lng, lat] of points) {
    a.appendBigInt(BigInt(uprn));
    if (lat === null) a.appendNull();
    else a.appendDouble(lat);
    if (lng === null) a.appendNull();
    else a.appendDouble(lng);
    a.endRow();
  }
  a.flushSync();
  a.closeSync();
  await c.run(`ALTER TABLE ${table} ADD COLUMN country VARCHAR DEFAULT 'England'`);
  for (const [uprn, country] of Object.entries(countries)) {
    await c.run(`UPDATE ${table} SET country = ${country === null ? 'NULL' : `'${country}'`} WHERE uprn = ${uprn}`);
  }
}

const rows = async (c: DuckDBConnection, q: string) => (await c.runAndReadAll(q)).getRowObjectsJson();

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  conn = await instance.connect();
  await stagePlanning(conn, LAYERS);
  await loadPoints(conn, 'points', POINTS);
  counts = await computeFlags(conn, 'points', { today: TODAY });
});
afterAll(() => {
  conn?.closeSync();
  instance?.closeSync();
});

describe('computeFlags on a small in-memory database', () => {
  it('writes one uprn_flags row per UPRN with the flags each point should have', async () => {
    const got = await rows(conn, 'SELECT * FROM uprn_flags ORDER BY uprn');
    const flags = (fz: number | null, z2: boolean | null, z3: boolean | null, ca: boolean | null, a4: boolean | null, lb: boolean | null) => ({
      flood_zone: fz, flood_zone_2: z2, flood_zone_3: z3, conservation_area: ca, article_4: a4, listed_building: lb,
    });
    const F = false;
    const T = true;
    expect(got).toEqual([
      { uprn: '1', ...flags(3, T, T, T, F, T) },
      { uprn: '2', ...flags(2, T, F, T, F, F) },
      { uprn: '3', ...flags(1, F, F, F, F, F) },
      { uprn: '4', ...flags(1, F, F, T, F, F) },
      { uprn: '5', ...flags(3, T, T, F, F, F) },
      { uprn: '6', ...flags(1, F, F, F, T, F) },
      { uprn: '7', ...flags(1, F, F, F, T, F) },
      { uprn: '8', ...flags(1, F, F, F, F, F) },
      { uprn: '9', ...flags(1, F, F, F, T, F) },
      { uprn: '10', ...flags(2, T, F, T, F, F) },
      { uprn: '11', ...flags(null, null, null, null, null, null) },
      { uprn: '12', ...flags(1, F, F, F, F, F) },
      { uprn: '13', ...flags(1, F, F, F, F, F) },
      { uprn: '14', ...flags(1, F, F, F, F, F) },
    ]);
  });

  it('writes every (point, containing feature) pair to uprn_designations with name and reference', async () => {
    const got = await rows(conn, 'SELECT uprn, dataset, entity, reference, name, flood_risk_level FROM uprn_designations ORDER BY uprn::BIGINT, dataset, entity');
    const d = (uprn: number, dataset: string, entity: number, level: number | null = null) => ({
      uprn: String(uprn), dataset, entity: String(entity), reference: `R${entity}`, name: `${dataset} ${entity}`, flood_risk_level: level,
    });
    expect(got).toEqual([
      d(1, 'conservation-area', 10),
      d(1, 'flood-risk-zone', 1, 2),
      d(1, 'flood-risk-zone', 2, 3),
      d(1, 'listed-building-outline', 30),
      d(2, 'conservation-area', 10),
      d(2, 'flood-risk-zone', 1, 2),
      d(4, 'conservation-area', 10),
      d(5, 'flood-risk-zone', 3, 3),
      d(6, 'article-4-direction-area', 20),
      d(7, 'article-4-direction-area', 20),
      d(9, 'article-4-direction-area', 22),
      d(10, 'conservation-area', 10),
      d(10, 'flood-risk-zone', 1, 2),
      d(14, 'green-belt', 40),
    ]);
  });

  it('returns the counts for the manifest', () => {
    expect(counts).toEqual({
      points: 13,
      uprns: 14,
      located: 13,
      covered: 13,
      features: 8, // 10 staged, one ended in 2020 and one ends today
      features_by_dataset: { 'article-4-direction-area': 2, 'conservation-area': 1, 'flood-risk-zone': 3, 'green-belt': 1, 'listed-building-outline': 1 },
      designations: 14,
      flagged: { flood_zone_2: 4, flood_zone_3: 2, conservation_area: 4, article_4: 3, listed_building: 1 },
    });
  });

  it('gives NULL flags (unknown) outside England, the layers\' coverage: Wales, Scotland, an unknown country', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    try {
      await stagePlanning(c, LAYERS);
      // 1: inside zones 2 and 3, a conservation area and a listed outline, but given as Welsh;
      // 12: in no feature, Scottish; 14: no country known; 3: in no feature, English.
      await loadPoints(c, 'points', POINTS, { 1: 'Wales', 12: 'Scotland', 14: null });
      const n = await computeFlags(c, 'points', { today: TODAY });
      expect(n).toMatchObject({ uprns: 14, located: 13, covered: 10 });
      const none = { flood_zone: null, flood_zone_2: null, flood_zone_3: null, conservation_area: null, article_4: null, listed_building: null };
      expect(await rows(c, 'SELECT * FROM uprn_flags WHERE uprn IN (1, 3, 12, 14) ORDER BY uprn')).toEqual([
        { uprn: '1', ...none },
        { uprn: '3', flood_zone: 1, flood_zone_2: false, flood_zone_3: false, conservation_area: false, article_4: false, listed_building: false },
        { uprn: '12', ...none },
        { uprn: '14', ...none },
      ]);
    } finally {
      c.closeSync();
      db.closeSync();
    }
  });

  it('gives the same tables when run again (replaces, never appends)', async () => {
    const before = await rows(conn, 'SELECT * FROM uprn_designations');
    expect(await computeFlags(conn, 'points', { today: TODAY })).toEqual(counts);
    expect(await rows(conn, 'SELECT * FROM uprn_designations')).toEqual(before);
    expect(await rows(conn, 'SELECT count(*)::INTEGER AS n FROM duckdb_views() WHERE view_name = \'spatial_points\'')).toEqual([{ n: 0 }]);
  });

  it('uses the features in force on the given day', async () => {
    const before = await computeFlags(conn, 'points', { today: '2019-12-31' }); // the 2020 direction still in force
    expect(before.features).toBe(10);
    expect(before.flagged.article_4).toBe(5); // 6, 7, 8, 9, 13
    const later = await computeFlags(conn, 'points', { today: '2027-01-01' }); // '2026' has now ended
    expect(later.flagged.article_4).toBe(2);
    await computeFlags(conn, 'points', { today: TODAY });
  });
});

describe('computeFlags at scale and on bad input', () => {
  it('streams every point even past the appender flush size (250,000 points)', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    try {
      await stagePlanning(c, LAYERS);
      // A 250 × 1000 grid inside Zone 2 and the conservation area, crossing Zone 3's west edge.
      await c.run(`CREATE TABLE grid AS SELECT i::BIGINT AS uprn, 51.451 + (i % 1000) * 0.00001 AS lat, -2.599 + (i // 1000) * 0.00002 AS lng, 'England' AS country FROM range(250000) t(i)`);
      const n = await computeFlags(c, 'grid', { today: TODAY });
      // Zone 3 by a plain rectangle test in SQL (boundary inclusive), independent of ours.
      const [z3] = await rows(c, `SELECT count(*)::INTEGER AS n FROM grid WHERE lng BETWEEN -2.595 AND -2.585 AND lat BETWEEN 51.455 AND 51.465`);
      expect(n.points).toBe(250_000);
      expect(n.uprns).toBe(250_000);
      expect(n.located).toBe(250_000);
      expect(n.flagged.flood_zone_2).toBe(250_000);
      expect(n.flagged.conservation_area).toBe(250_000);
      expect(n.flagged.flood_zone_3).toBe(Number(z3!.n));
      expect(n.flagged.flood_zone_3).toBeGreaterThan(0);
      expect(n.designations).toBe(250_000 * 2 + n.flagged.flood_zone_3);
    } finally {
      c.closeSync();
      db.closeSync();
    }
  });

  it('flags nothing (zone 1, all false) when no layer is in force, but still one row per UPRN', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    try {
      await stagePlanning(c, []);
      await loadPoints(c, 'points', POINTS);
      const n = await computeFlags(c, 'points', { today: TODAY });
      expect(n).toMatchObject({ uprns: 14, located: 13, covered: 13, features: 0, designations: 0 });
      expect(await rows(c, 'SELECT DISTINCT flood_zone, conservation_area FROM uprn_flags WHERE uprn <> 11')).toEqual([{ flood_zone: 1, conservation_area: false }]);
    } finally {
      c.closeSync();
      db.closeSync();
    }
  });

  it('gives a UPRN listed twice one flags row, flagged if any of its points is located', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    try {
      await stagePlanning(c, LAYERS);
      await loadPoints(c, 'pts', [[7, null, null], [7, -2.599, 51.451], [8, null, null]]);
      const n = await computeFlags(c, 'main.pts', { today: TODAY }); // schema-qualified name accepted
      expect(n).toMatchObject({ points: 1, uprns: 2, located: 1, designations: 2 });
      expect(await rows(c, 'SELECT uprn, flood_zone, conservation_area FROM uprn_flags ORDER BY uprn')).toEqual([
        { uprn: '7', flood_zone: 2, conservation_area: true },
        { uprn: '8', flood_zone: null, conservation_area: null },
      ]);
    } finally {
      c.closeSync();
      db.closeSync();
    }
  });

  it('refuses a bad table name, a bad date, a missing points table or missing planning layers', async () => {
    await expect(computeFlags(conn, 'points; DROP TABLE x', { today: TODAY })).rejects.toThrow(/not a plain table name/);
    await expect(computeFlags(conn, 'points', { today: '21/11/2026' })).rejects.toThrow(/YYYY-MM-DD/);
    await expect(computeFlags(conn, 'no_such_points', { today: TODAY })).rejects.toThrow(/no_such_points/);
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    try {
      await loadPoints(c, 'points', POINTS);
      await expect(computeFlags(c, 'points', { today: TODAY })).rejects.toThrow(/stg_planning not found/);
    } finally {
      c.closeSync();
      db.closeSync();
    }
  });

  it('refuses a staged geometry that is not JSON or not a polygon', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    try {
      await stagePlanning(c, LAYERS.slice(0, 1));
      await c.run(`UPDATE stg_planning SET geometry = '{"type": "Polygon", '`);
      await loadPoints(c, 'points', POINTS);
      await expect(computeFlags(c, 'points', { today: TODAY })).rejects.toThrow(/geometry of flood-risk-zone 1 is not JSON/);
      await c.run(`UPDATE stg_planning SET geometry = '{"type": "Point", "coordinates": [-2.6, 51.45]}'`);
      await expect(computeFlags(c, 'points', { today: TODAY })).rejects.toThrow(/flood-risk-zone 1 is not a Polygon or MultiPolygon/);
    } finally {
      c.closeSync();
      db.closeSync();
    }
  });
});
