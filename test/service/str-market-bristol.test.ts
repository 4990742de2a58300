import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { statSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { StrMarketSchema } from '../../schemas/api/str.ts';
import type { SourceFile } from '../../etl/pipeline/discover.ts';
import type { SourceKind } from '../../etl/sources/index.ts';
import { queryRows, stageSql } from '../../etl/pipeline/sql.ts';
import { buildStrMarts } from '../../etl/stages/40-marts/70-str/stage.ts';
import { stageSources } from '../../etl/stages/10-staging/10-stage-sources/stage-sources.ts';
import { SECTIONS, marketSections } from '../../service/domain/str/market.ts';
import { connectionReads } from '../../service/store/store.ts';
import { StrMarketSet } from '../../service/str/market-set.ts';
import { hasRaw, rawPath } from '../support/raw.ts';

const SAMPLES: [SourceKind, string][] = [
  ['airbnb_listings', 'airbnb/bristol_2025-09-26/listings.csv.gz'],
  ['airbnb_calendar', 'airbnb/bristol_2025-09-26/calendar.csv.gz'],
  ['airbnb_reviews', 'airbnb/bristol_2020-05_reviews/reviews.csv.gz'],
  ['codepoint', 'postcodes/codepoint_open_2024-01/bs.csv'],
];
const present = SAMPLES.every(([, rel]) => hasRaw(rel));
if (!present) console.warn('str-market-bristol: ../shared/data/raw/airbnb/bristol_* or Code-Point BS absent: skipped');

/**
 * GET /str/market?outcode=BS1 on the real Bristol 2025-09-26 scrape, computed as the route
 * does (the market set the service loads, the outcode's listings, every section), set beside
 * the scrape's own estimated_occupancy_l365d and estimated_revenue_l365d for the same listings.
 */
describe.skipIf(!present)('market analysis on the real Bristol scrape', () => {
  let conn: DuckDBConnection | undefined;
  afterAll(() => conn?.closeSync());

  it('outcode BS1: plausible figures, near Inside Airbnb\'s own estimates', async () => {
    conn = await (await DuckDBInstance.create(':memory:')).connect();
    const files: SourceFile[] = SAMPLES.map(([kind, rel]) => ({ kind, rel, path: rawPath(rel), bytes: statSync(rawPath(rel)).size }));
    await stageSources(conn, files, '2025-10-01');
    await stageSql('20-merged/10-addresses').run(conn, 'addresses');
    await buildStrMarts(conn);
    const c = conn;
    const set = await StrMarketSet.load(connectionReads(c));
    const idx = set.outcode('BS1');
    expect(idx.length).toBeGreaterThan(100);
    const m = StrMarketSchema.parse({ location: 'BS1', country: 'England', currency: 'GBP', listings: idx.length, ...marketSections(set.listings, idx, new Set(SECTIONS), set.bench()) }) as any;
    const [raw] = await queryRows(conn, `SELECT count(*) AS active,
      avg(airbnb_estimated_nights_l365d) AS their_nights_mean, median(airbnb_estimated_nights_l365d) AS their_nights_median,
      avg(airbnb_estimated_revenue_l365d) AS their_revenue_mean, median(airbnb_estimated_revenue_l365d) AS their_revenue_median,
      avg(booked_nights_ltm) AS our_nights_mean, avg(revenue_ltm) AS our_revenue_mean, avg(price_gbp) AS price_mean
      FROM str_listings WHERE outcode = 'BS1' AND active`);
    const summary = { ...m.summary, nights_per_listing_year: m.summary.adr > 0 ? Math.round((m.summary.revenue_annual / m.summary.adr) * 10) / 10 : null };
    process.stdout.write(`BS1 market: ${JSON.stringify({ summary, supply: m.supply, grade: m.grade, ratings: m.ratings, demand: m.demand })}\n`);
    process.stdout.write(`BS1 Inside Airbnb (active listings): ${JSON.stringify(raw)}\n`);
    process.stdout.write(`BS1 historical: ${JSON.stringify(m.historical.map((h: any) => [h.month, h.revenue_pcm, h.occupancy_pct]))}\n`);

    expect(m.summary.active_listings).toBe(Number(raw!.active));
    expect(m.summary.adr).toBeGreaterThan(60);
    expect(m.summary.adr).toBeLessThan(250);
    expect(m.summary.occupancy_pct).toBeGreaterThan(5);
    expect(m.summary.occupancy_pct).toBeLessThan(80);
    // Annual revenue per listing within a factor of two of the scrape's own mean estimate.
    const ratio = m.summary.revenue_annual / Number(raw!.their_revenue_mean);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
    expect(m.historical).toHaveLength(24);
    expect(m.historical[23].month).toBe('2025-09');
    expect(m.amenities.wifi_pct).toBeGreaterThan(80);
    expect(m.by_price_tier.length).toBeGreaterThan(2);
  }, 300_000);
});
