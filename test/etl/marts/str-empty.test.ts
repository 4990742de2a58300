import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterEach, describe, expect, it } from 'vitest';
import { countRows, queryRows, runSql } from '../../../etl/pipeline/sql.ts';
import { STR_SQL_ORDER, buildStrMarts } from '../../../etl/stages/40-marts/70-str/stage.ts';
import { STR_TABLES } from '../../../schemas/tables/str.ts';
import { stageSources } from '../../../etl/stages/10-staging/10-stage-sources/stage-sources.ts';

describe('STR marts at the edges', () => {
  let conn: DuckDBConnection | undefined;
  afterEach(() => {
    conn?.closeSync();
    conn = undefined;
  });

  it('a build without Inside Airbnb files publishes empty tables (and the five empty tiers)', async () => {
    conn = await (await DuckDBInstance.create(':memory:')).connect();
    await stageSources(conn, [], '2025-10-01'); // every staging table, empty
    await runSql(conn, 'addresses');
    await buildStrMarts(conn);
    for (const t of STR_TABLES) {
      const rows = await countRows(conn, t.name);
      expect(rows, t.name).toBe(t.name === 'str_price_tiers' ? 5 : t.name === 'str_seasonality' ? 12 : 0);
    }
    // With no reviews the build-wide seasonality is flat.
    const [flat] = await queryRows(conn, "SELECT min(demand_index) AS lo, max(demand_index) AS hi FROM str_seasonality WHERE la_code = '*'");
    expect(Number(flat?.lo)).toBeCloseTo(1, 9);
    expect(Number(flat?.hi)).toBeCloseTo(1, 9);
  });

  it('fails naming the missing table when the staged sources are absent', async () => {
    conn = await (await DuckDBInstance.create(':memory:')).connect();
    await expect(buildStrMarts(conn)).rejects.toThrow(/stg_airbnb_listings/);
    expect(STR_SQL_ORDER[0]).toBe('str_listing_src');
  });
});
