import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import type { BuildContext } from '../../../etl/pipeline/context.ts';
import { queryRows } from '../../../etl/pipeline/sql.ts';
import { pricePaidCurrentStage } from '../../../etl/stages/10-staging/20-price-paid-current/stage.ts';
import { matchAddresses } from '../../../etl/stages/20-merged/20-match-addresses/stage.ts';
import { quietLog } from '../../support/region.ts';

describe('match_addresses at scale', () => {
  // DuckDB ends a streamed result silently when its connection runs anything else, and the
  // appender flushes every 204,800 rows: more sales than that must all come through.
  it('matches every one of 250,000 sales (past the appender flush)', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    await conn.run(`CREATE TABLE addresses AS SELECT 1::BIGINT AS uprn, 'BS1 1HU' AS postcode, 'BRISTOL' AS post_town,
      NULL::VARCHAR AS sub_building, NULL::VARCHAR AS building_name, '32' AS building_number, 'GRANGE WALK' AS street_name`);
    await conn.run(`CREATE TABLE stg_price_paid AS SELECT 'T' || range AS transaction_id, 100000::BIGINT AS price, '2020-01-01' AS date,
      'BS1 1HU' AS postcode, 'T' AS property_type, false AS new_build, 'F' AS tenure, '32' AS paon, NULL::VARCHAR AS saon,
      'GRANGE WALK' AS street, NULL::VARCHAR AS locality, 'BRISTOL' AS town, NULL::VARCHAR AS district, NULL::VARCHAR AS county,
      'A' AS category, 'A' AS record_status, 1 AS _file_no FROM range(250000)`);
    await conn.run(`CREATE TABLE stg_epc (certificate_id VARCHAR, uprn BIGINT, postcode VARCHAR, posttown VARCHAR,
      address1 VARCHAR, address2 VARCHAR, address3 VARCHAR)`);
    const ctx = { db, conn, matchRates: {}, quality: {}, log: quietLog } as unknown as BuildContext;
    await pricePaidCurrentStage.run(ctx);
    await matchAddresses.run(ctx);
    const [r] = await queryRows(conn, 'SELECT count(*)::INTEGER AS n, count(uprn)::INTEGER AS matched FROM sale_matches');
    expect(r).toEqual({ n: 250000, matched: 250000 });
    conn.closeSync();
  }, 120_000);
});
