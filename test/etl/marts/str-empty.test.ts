import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterEach, describe, expect, it } from 'vitest';
import { countRows, queryRows, stageSql } from '../../../etl/pipeline/sql.ts';
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
    await stageSql('20-merged/10-addresses').run(conn, 'addresses');
    await buildStrMarts(conn);
    for (const t of STR_TABLES) {
      const rows = await countRows(conn, t.name);
      expect(rows, t.name).toBe(t.name === 'str_price_tiers' ? 5 : t.name === 'str_seasonality' ? 12 : 0);
    }
    // With no reviews the build-wide seasonality is the national prior (Bristol's 2017–2020
    // reviews by month), not a flat year: demand per night = the month's share × 365.25 ÷ its days.
    const prior = [5756, 7665, 6175, 6416, 6807, 7482, 8867, 8492, 8675, 8337, 7899, 6772];
    const days = [31, 28.25, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    const total = prior.reduce((a, b) => a + b, 0);
    const season = await queryRows(conn, "SELECT month_of_year, demand_index, source FROM str_seasonality WHERE la_code = '*' ORDER BY month_of_year");
    expect(season.map((r) => r.source)).toEqual(Array(12).fill('national_prior'));
    season.forEach((r, i) => expect(Number(r.demand_index)).toBeCloseTo((prior[i]! / total) * 365.25 / days[i]!, 9));
  });

  it('fails naming the missing table when the staged sources are absent', async () => {
    conn = await (await DuckDBInstance.create(':memory:')).connect();
    await expect(buildStrMarts(conn)).rejects.toThrow(/stg_airbnb_listings/);
    expect(STR_SQL_ORDER[0]).toBe('str_listing_src');
  });
});
