/**
 * Sentinel prices (issue 48): a city whose hostel beds are mostly listed at a placeholder
 * (£999 or £1,000) must not make the placeholder its shared rooms' median and the one real
 * price the outlier. str_price_guard.sql on hand-made listings, each case's expectation
 * stated from the rule in docs/str.md ("Price guard"), not read back from the SQL.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, stageSql } from '../../../etl/pipeline/sql.ts';
import { strSqlParams } from '../../../etl/stages/40-marts/70-str/params.ts';

interface L { la: string; type: 'entire_home' | 'private_room' | 'shared_room'; band: string; price: number }

let conn: DuckDBConnection;
beforeAll(async () => {
  conn = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(() => conn.closeSync());

async function guard(listings: L[]): Promise<Map<number, { sentinel: boolean; outlier: boolean; median: number | null }>> {
  await conn.run('CREATE OR REPLACE TABLE str_listing_base (id BIGINT, la_code VARCHAR, listing_type VARCHAR, tier_band VARCHAR, price_gbp DOUBLE)');
  const values = listings.map((l, i) => `(${i + 1}, '${l.la}', '${l.type}', '${l.band}', ${l.price})`).join(', ');
  await conn.run(`INSERT INTO str_listing_base VALUES ${values}`);
  await stageSql('40-marts/70-str').run(conn, 'str_price_guard', strSqlParams());
  const rows = await queryRows(conn, 'SELECT id, price_sentinel, price_outlier, guard_median_gbp FROM str_price_guard ORDER BY id');
  return new Map(rows.map((r) => [Number(r.id), { sentinel: r.price_sentinel === true, outlier: r.price_outlier === true, median: r.guard_median_gbp === null ? null : Number(r.guard_median_gbp) }]));
}

/** `n` whole homes of a band in an LA at prices spread evenly around `centre` (±40%). */
const homes = (la: string, band: string, n: number, centre: number): L[] =>
  Array.from({ length: n }, (_, i) => ({ la, type: 'entire_home' as const, band, price: Math.round(centre * (0.6 + (0.8 * i) / (n - 1))) }));

describe('sentinel prices', () => {
  it('a city of hostel beds at £999 and £1,000 flags the placeholders and keeps the one real price', async () => {
    const city = 'S12000036';
    const listings: L[] = [
      ...homes(city, 'entire_2', 60, 120),
      ...Array.from({ length: 13 }, () => ({ la: city, type: 'shared_room' as const, band: 'shared_room', price: 999 })),
      ...Array.from({ length: 13 }, () => ({ la: city, type: 'shared_room' as const, band: 'shared_room', price: 1000 })),
      { la: city, type: 'shared_room', band: 'shared_room', price: 100 },
    ];
    const g = await guard(listings);
    const idsAt = (pred: (l: L) => boolean) => listings.flatMap((l, i) => (pred(l) ? [i + 1] : []));
    for (const id of idsAt((l) => l.price >= 999)) expect(g.get(id)).toMatchObject({ sentinel: true, outlier: true });
    const real = idsAt((l) => l.type === 'shared_room' && l.price === 100)[0]!;
    expect(g.get(real)).toMatchObject({ sentinel: false, outlier: false });
    // The homes are within ×0.6–×1.4 of their median: none is touched.
    for (const id of idsAt((l) => l.type === 'entire_home')) expect(g.get(id)).toMatchObject({ sentinel: false, outlier: false });
    // The placeholders' group figure is the figure without them (the one real bed's, else the city's), never £999.
    expect(g.get(idsAt((l) => l.price === 999)[0]!)!.median).toBeLessThan(200);
  });

  it('a repeated round price that is not far above its band, or below the floor, or repeated twice, is not a sentinel', async () => {
    const la = 'E06000023';
    const listings: L[] = [
      // Five-bedroom-plus homes whose band median is about £300: four at £600 are real (×2).
      ...homes(la, 'entire_4', 30, 300),
      ...Array.from({ length: 4 }, () => ({ la, type: 'entire_home' as const, band: 'entire_4', price: 600 })),
      // Round £100 two-beds: below the £500 floor.
      ...homes(la, 'entire_2', 40, 110),
      ...Array.from({ length: 6 }, () => ({ la, type: 'entire_home' as const, band: 'entire_2', price: 100 })),
      // Two one-beds at £9,999: not a spike (fewer than three), but the robust outlier rule still flags them.
      ...homes(la, 'entire_1', 40, 80),
      { la, type: 'entire_home', band: 'entire_1', price: 9999 },
      { la, type: 'entire_home', band: 'entire_1', price: 9999 },
    ];
    const g = await guard(listings);
    listings.forEach((l, i) => {
      const r = g.get(i + 1)!;
      expect(r.sentinel, `${l.band} £${l.price}`).toBe(false);
      expect(r.outlier, `${l.band} £${l.price}`).toBe(l.price === 9999);
    });
  });

  it('spikes are counted per LA: three placeholders in one city, none in another', async () => {
    const listings: L[] = [
      ...homes('E06000023', 'entire_1', 30, 90),
      ...Array.from({ length: 3 }, () => ({ la: 'E06000023', type: 'entire_home' as const, band: 'entire_1', price: 4500 })),
      ...homes('W06000015', 'entire_1', 30, 90),
      { la: 'W06000015', type: 'entire_home', band: 'entire_1', price: 4500 },
    ];
    const g = await guard(listings);
    listings.forEach((l, i) => expect(g.get(i + 1)!.sentinel, `${l.la} £${l.price}`).toBe(l.la === 'E06000023' && l.price === 4500));
    // The lone Cardiff £4,500 is still an outlier by the robust rule (×50 its band's median).
    expect(g.get(listings.length)!.outlier).toBe(true);
  });
});
