import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { duckdbSizeBytes } from '../../../etl/pipeline/memory-limit.ts';
import { propertiesChunks } from '../../../etl/stages/20-merged/60-properties/chunks.ts';
import { buildProperties } from '../../../etl/stages/20-merged/60-properties/stage.ts';

/**
 * The properties stage builds its table in chunks by UPRN when its joins would outgrow
 * DuckDB's memory limit (docs/etl.md, "Memory"). Cut into any number of chunks, the table
 * must hold the same rows as built in one.
 */
let db: DuckDBInstance;
let conn: DuckDBConnection;
const q = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];

beforeEach(async () => {
  db = await DuckDBInstance.create(':memory:', { threads: '2' });
  conn = await db.connect();
});
afterEach(() => conn.closeSync());

/** 3,000 addresses (one without a UPRN); certificates, 0-3 sales and flags for some of them. */
async function loadInputs(): Promise<void> {
  await conn.run(`CREATE TABLE addresses AS
    SELECT CASE WHEN i = 0 THEN NULL ELSE 100000 + i * 7 END::BIGINT AS uprn, 'ADDR ' || i AS address, 'BS1 ' || (i % 9) || 'AA' AS postcode,
      'BS1' AS outcode, 'BS1 ' || (i % 9) AS sector, 'BS' AS postcode_area, 'E06000023' AS la_code, 51.4 + i / 1e5 AS lat, -2.5 AS lng,
      'England' AS country, ['RD02', 'RD03', 'RD04', 'RD06', NULL][1 + i % 5] AS classification_code
    FROM range(3000) t(i)`);
  await conn.run(`CREATE TABLE epc_by_uprn AS
    SELECT 100000 + i * 7 AS uprn, ['Flat', 'House', 'Maisonette'][1 + i % 3] AS epc_property_type,
      ['Detached', 'Semi-Detached', 'Mid-Terrace', NULL][1 + i % 4] AS built_form, 40.0 + i % 90 AS floor_area_m2,
      (1 + i % 7)::INTEGER AS habitable_rooms, 'England and Wales: 1950-1966' AS construction_age, ['C', 'D'][1 + i % 2] AS epc_current_rating,
      'B' AS epc_potential_rating, (50 + i % 40)::INTEGER AS epc_current_efficiency, DATE '2015-01-01' + (i % 2000)::INTEGER AS latest_lodgement_date
    FROM range(1, 3000, 2) t(i)`);
  await conn.run(`CREATE TABLE sales AS
    SELECT 100000 + i * 7 AS uprn, '{T-' || i || '-' || k || '}' AS transaction_id, (100000 + i * 13 + k * 5000)::BIGINT AS price,
      DATE '2000-01-01' + (k * 900 + i % 300)::INTEGER AS date, ['D', 'S', 'T', 'F'][1 + (i + k) % 4] AS property_type,
      ['F', 'L', 'U'][1 + (i + k) % 3] AS tenure
    FROM range(1, 3000) t(i), range(3) s(k) WHERE k < i % 4`);
  await conn.run(`CREATE TABLE uprn_flags AS
    SELECT 100000 + i * 7 AS uprn, (1 + i % 3)::INTEGER AS flood_zone, i % 3 >= 1 AS flood_zone_2, i % 3 = 2 AS flood_zone_3,
      i % 5 = 0 AS conservation_area, i % 11 = 0 AS article_4, i % 13 = 0 AS listed_building
    FROM range(1, 3000, 3) t(i)`);
}

describe('properties built in chunks', () => {
  it('holds the same rows whatever the number of chunks', async () => {
    await loadInputs();
    await buildProperties(conn, 1);
    await conn.run(`CREATE TABLE whole AS FROM properties`);
    expect((await q(`SELECT count(*)::INTEGER AS n FROM whole`))[0]).toEqual({ n: 3000 });
    // The inputs reach every branch: certificates (odd i), sales (i % 4 > 0: 2,999 - 749), flags
    // (i % 3 = 1), and an address without a UPRN.
    expect((await q(`SELECT count(epc_current_rating)::INTEGER AS epc, count(last_sold_price)::INTEGER AS sold,
      count(flood_zone)::INTEGER AS flagged, count(*) FILTER (WHERE uprn IS NULL)::INTEGER AS no_uprn FROM whole`))[0])
      .toEqual({ epc: 1500, sold: 2250, flagged: 1000, no_uprn: 1 });
    for (const chunks of [2, 3, 7]) {
      await buildProperties(conn, chunks);
      const [diff] = await q(`SELECT
        (SELECT count(*) FROM (FROM properties EXCEPT ALL FROM whole))::INTEGER AS extra,
        (SELECT count(*) FROM (FROM whole EXCEPT ALL FROM properties))::INTEGER AS missing`);
      expect(diff, `${chunks} chunks`).toEqual({ extra: 0, missing: 0 });
    }
  });

  it('leaves no macro behind', async () => {
    await loadInputs();
    await buildProperties(conn, 2);
    expect(await q(`SELECT function_name FROM duckdb_functions() WHERE function_name = 'properties_chunk'`)).toEqual([]);
  });
});

describe('propertiesChunks', () => {
  it('is one chunk while the join sides take under a third of the limit', () => {
    // 2.7M build rows × 100 B = 270 MB, under a third of 1 GB (333 MB).
    expect(propertiesChunks(2_700_000, 1e9)).toBe(1);
    expect(propertiesChunks(0, 1e9)).toBe(1);
  });
  it('cuts the join sides into pieces of at most a third of the limit', () => {
    // 270 MB in pieces of 50 MB (a third of 150 MB): 5.4, so 6.
    expect(propertiesChunks(2_700_000, 150e6)).toBe(6);
    // 27M rows (10M addresses) under 1 GB: 2.7 GB in pieces of 333 MB: 8.1, so 9.
    expect(propertiesChunks(27_000_000, 1e9)).toBe(9);
  });
});

describe('duckdbSizeBytes', () => {
  it('reads the sizes DuckDB prints', () => {
    expect(duckdbSizeBytes('953.6 MiB')).toBe(953.6 * 1024 * 1024);
    expect(duckdbSizeBytes('2.5 GiB')).toBe(2.5 * 1024 ** 3);
    expect(duckdbSizeBytes('512 bytes')).toBe(512);
    expect(() => duckdbSizeBytes('lots')).toThrow(/not a DuckDB size/);
  });
  it("reads DuckDB's own memory_limit setting back", async () => {
    const limited = await DuckDBInstance.create(':memory:', { memory_limit: '150MB' });
    const c = await limited.connect();
    const v = String((await c.runAndReadAll(`SELECT current_setting('memory_limit') AS v`)).getRowObjectsJson()[0]!.v);
    c.closeSync();
    // DuckDB prints 150 MB as 143.0 MiB: within its one decimal.
    expect(Math.abs(duckdbSizeBytes(v) - 150e6)).toBeLessThan(0.1 * 2 ** 20);
  });
});
