import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BuildContext } from '../../../etl/pipeline/context.ts';
import { queryRows } from '../../../etl/pipeline/sql.ts';
import { ruleViolationsSql } from '../../../schemas/tables/contract.ts';
import { LOCATION_TABLES } from '../../../schemas/tables/location.ts';
import { stagedContext } from '../../support/region.ts';

// The location marts over a synthetic region, checked against its truth folder.
describe('location marts (6,000 addresses, seed 11)', () => {
  let ctx: BuildContext;
  let truth: string;
  beforeAll(async () => {
    ctx = await stagedContext(6000, 11);
    truth = join(ctx.sourcesDir, 'truth').replaceAll("'", "''");
  }, 600_000);
  const q = (sql: string) => queryRows(ctx.conn, sql);

  it('crime: each month and force from its current release only, the 12 latest months, as many rows as the truth says', async () => {
    const rows = await q(`
      WITH t AS (SELECT * FROM read_csv('${truth}/crime-files.csv', header = true, all_varchar = true) WHERE current = '1'),
      last12 AS (SELECT * FROM t WHERE month > (SELECT strftime(strptime(max(month) || '-01', '%Y-%m-%d') - INTERVAL 12 MONTH, '%Y-%m') FROM t)),
      c AS (SELECT force, month, release, count(*)::INTEGER AS n FROM crime GROUP BY ALL)
      SELECT count(*) FILTER (WHERE c.n IS NULL OR c.release <> last12.release OR c.n <> last12.rows::INTEGER) AS wrong,
             count(*) AS files, (SELECT count(*) FROM c) AS in_crime
      FROM last12 LEFT JOIN c USING (force, month)`);
    expect(rows[0]).toEqual({ wrong: '0', files: '60', in_crime: '60' });
    const [months] = await q('SELECT count(DISTINCT month) AS n, count(*) FILTER (WHERE la_code IS NULL AND lsoa_code IS NOT NULL) AS no_la FROM crime');
    expect(months).toEqual({ n: '12', no_la: '0' });
  });

  it('crime_la: crimes over addresses for each authority with crime data (not Edinburgh: police.uk has no Scottish force)', async () => {
    const rows = await q(`
      SELECT l.la_code, l.crimes = (SELECT count(*) FROM crime c WHERE c.la_code = l.la_code) AS crimes_ok,
             l.addresses = (SELECT count(*) FROM addresses a WHERE a.la_code = l.la_code) AS addresses_ok,
             abs(l.per_1000_addresses - 1000.0 * l.crimes / l.addresses) < 0.06 AS rate_ok
      FROM crime_la l ORDER BY la_code`);
    expect(rows.map((r) => r.la_code)).toEqual(['E06000023', 'E07000082', 'E09000001', 'E09000033', 'W06000015']);
    expect(rows.every((r) => r.crimes_ok && r.addresses_ok && r.rate_ok)).toBe(true);
  });

  it('listings: exactly the truth\'s live listings at their final prices; matched UPRNs are the listed homes (under 1% wrong)', async () => {
    const [r] = await q(`
      WITH t AS (SELECT * FROM read_csv('${truth}/listings-market.csv', header = true, all_varchar = true) WHERE live = '1')
      SELECT (SELECT count(*) FROM t) AS live, (SELECT count(*) FROM listings) AS listed,
             count(*) FILTER (WHERE l.listing_id IS NULL) AS missing,
             count(*) FILTER (WHERE abs(l.price - t.price::DOUBLE) > 0.01) AS wrong_price,
             count(*) FILTER (WHERE l.uprn IS NOT NULL) AS matched,
             count(*) FILTER (WHERE l.uprn IS NOT NULL AND l.uprn::VARCHAR <> t.uprn) AS wrong_uprn,
             count(*) FILTER (WHERE l.lat IS NULL) AS unplaced
      FROM t LEFT JOIN listings l USING (listing_id)`);
    expect(r!.missing).toBe('0');
    expect(r!.listed).toBe(r!.live);
    expect(r!.wrong_price).toBe('0');
    // The address matcher's own error rate (1 of 200 matched at this seed): a wrong UPRN is rare, not impossible.
    expect(Number(r!.wrong_uprn) / Number(r!.matched)).toBeLessThan(0.01);
    expect(r!.unplaced).toBe('0');
    expect(Number(r!.matched) / Number(r!.live)).toBeGreaterThan(0.85);
  });

  it('schools: one row per URN, all placed, the planted rows not among them', async () => {
    const [r] = await q(`SELECT count(*) AS n, count(DISTINCT urn) AS urns, count(*) FILTER (WHERE urn >= 999000) AS planted,
      count(*) FILTER (WHERE status = 'Open') AS open FROM schools`);
    expect(r!.n).toBe(r!.urns);
    expect(r!.planted).toBe('0');
    expect(Number(r!.open)).toBeGreaterThan(0);
  });

  it('the location tables meet their contracts', async () => {
    let checked = 0;
    for (const t of LOCATION_TABLES) {
      for (const rule of t.rules ?? []) {
        const [row] = (await ctx.conn.runAndReadAll(ruleViolationsSql(t.name, rule))).getRows();
        expect(Number(row![0]), `${t.name}: ${rule.rule}`).toBe(0);
        checked++;
      }
    }
    expect(checked).toBe(9);
  });
});
