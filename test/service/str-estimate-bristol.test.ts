import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { statSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { SourceFile } from '../../etl/pipeline/discover.ts';
import type { SourceKind } from '../../etl/sources/index.ts';
import { queryRows, stageSql } from '../../etl/pipeline/sql.ts';
import { buildStrMarts } from '../../etl/stages/40-marts/70-str/stage.ts';
import { stageSources } from '../../etl/stages/10-staging/10-stage-sources/stage-sources.ts';
import { connectionReads } from '../../service/store/store.ts';
import { estimateAt } from '../../service/str/estimator.ts';
import { StrListingIndex } from '../../service/str/listing-index.ts';
import { hasRaw, rawPath } from '../support/raw.ts';

// The calendar (1M rows) is left out to keep this quick: without it the marts take each
// listing's availability from the listings file (docs/str.md); the estimate reads the same columns.
const SAMPLES: [SourceKind, string][] = [
  ['airbnb_listings', 'airbnb/bristol_2025-09-26/listings.csv.gz'],
  ['airbnb_reviews', 'airbnb/bristol_2020-05_reviews/reviews.csv.gz'],
  ['codepoint', 'postcodes/codepoint_open_2024-01/bs.csv'],
];
const present = SAMPLES.every(([, rel]) => hasRaw(rel));

/**
 * The estimate on the real Bristol scrape (2025-09-26) for a point in BS1, beside the raw
 * file's own estimated_revenue_l365d of the whole homes with as many bedrooms within 2 km.
 */
describe.skipIf(!present)('STR estimate on the real Bristol 2025 scrape', () => {
  let conn: DuckDBConnection | undefined;
  afterAll(() => conn?.closeSync());

  it('a BS1 postcode: plausible ADR, occupancy and revenue, of the order of Inside Airbnb\'s own figures', async () => {
    conn = await (await DuckDBInstance.create(':memory:')).connect();
    const files: SourceFile[] = SAMPLES.map(([kind, rel]) => ({ kind, rel, path: rawPath(rel), bytes: statSync(rawPath(rel)).size }));
    await stageSources(conn, files, '2025-10-01');
    await stageSql('20-merged/10-addresses').run(conn, 'addresses');
    await buildStrMarts(conn);
    const index = await StrListingIndex.load(connectionReads(conn));
    expect(index.size).toBeGreaterThan(1000);
    // BS1 4DJ (Code-Point Open: the city centre, by Queen Square).
    const [pc] = await queryRows(conn, `SELECT postcode, lat, lng FROM stg_codepoint WHERE postcode = 'BS1 4DJ'`);
    expect(pc).toBeDefined();
    const lat = Number(pc!.lat), lng = Number(pc!.lng);
    for (const bedrooms of [1, 2, 3]) {
      const e = estimateAt(index, { lat, lng }, { bedrooms, finish_quality: 'average', include_comparables: false })!.figures;
      const [raw] = await queryRows(conn, `
        SELECT count(*) AS listings, median(airbnb_estimated_revenue_l365d) AS ia_revenue, round(avg(airbnb_estimated_revenue_l365d)) AS ia_revenue_mean,
          median(airbnb_estimated_nights_l365d) AS ia_nights, median(price_gbp) AS listed_price,
          round(median(revenue_ltm)) AS method_revenue, round(avg(revenue_ltm)) AS method_revenue_mean,
          round(median(revenue_ltm) FILTER (WHERE available_nights_ltm >= 90)) AS eligible_method_revenue,
          round(median(airbnb_estimated_revenue_l365d) FILTER (WHERE available_nights_ltm >= 90)) AS eligible_ia_revenue
        FROM str_listings
        WHERE active AND listing_type = 'entire_home' AND bedrooms = ${bedrooms} AND airbnb_estimated_revenue_l365d IS NOT NULL
          AND 2 * 6371008.8 * asin(sqrt(sin(radians(lat - ${lat}) / 2) ^ 2 + cos(radians(${lat})) * cos(radians(lat)) * sin(radians(lng - ${lng}) / 2) ^ 2)) <= 2000`);
      process.stdout.write(`Bristol BS1 4DJ, ${bedrooms} bed: estimate ${JSON.stringify({ ...e.projected_monthly, revenue: e.projected_annual.revenue, high: e.projected_annual.high_season_months, low: e.projected_annual.low_season_months, comps: e.comps, confidence: e.confidence })}; raw whole homes within 2 km ${JSON.stringify(raw)}\n`);
      expect(e.comps.listings_sampled).toBe(100);
      expect(e.projected_monthly.adr).toBeGreaterThan(40);
      expect(e.projected_monthly.adr).toBeLessThan(400);
      expect(e.projected_annual.occupancy_pct).toBeGreaterThan(10);
      expect(e.projected_annual.occupancy_pct).toBeLessThan(80);
      // Within a factor of 2.5 of the raw file's own median estimate for such homes nearby.
      const ratio = e.projected_annual.revenue / Number(raw!.ia_revenue);
      expect(ratio).toBeGreaterThan(0.4);
      expect(ratio).toBeLessThan(2.5);
    }
  }, 180_000);
});
