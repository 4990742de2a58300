import type { DuckDBConnection } from '@duckdb/node-api';
import { join } from 'node:path';
import { queryRows } from '../../etl/pipeline/sql.ts';
import { estimateAt } from '../../service/str/estimator.ts';
import { connectionReads, storeSql } from '../../service/store/store.ts';
import { StrListingIndex } from '../../service/str/listing-index.ts';

export interface StrEstimateAccuracy {
  /** Listings estimated (comparable-eligible whole homes with truth and at least one other listing within 2 km). */
  listings: number;
  /** Listings with no other comparable within 2 km (no estimate possible). */
  no_comparables: number;
  /** Median absolute % error of the annual revenue against the true revenue of the 12 months after the scrape. */
  mdape_revenue_next12: number;
  median_error_revenue_next12: number;
  /** The same against the true revenue of the 12 months ending at the scrape month. */
  mdape_revenue_ltm: number;
  /** Baseline: the unweighted median estimated revenue of the same listings within 2 km (no similarity, no regression). */
  naive_mdape_revenue_next12: number;
  /** Floor: the listing's own estimated revenue (str_listings.revenue_ltm, not left out) against the same truth. */
  own_estimate_mdape_revenue_next12: number;
  mdape_adr_next12: number;
  mdape_occupancy_next12: number;
  by_confidence: Record<string, { listings: number; mdape_revenue_next12: number }>;
}

const median = (xs: number[]): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * Leave-one-out accuracy of the STR estimate on a synthetic region: `conn` holds the STR marts
 * (a staged context), `sourcesDir` the region with its truth. Each comparable-eligible listing
 * is estimated from its own point, bedrooms, bathrooms and type with itself left out of the
 * comparables, and compared with its true revenue (truth/listing-months.csv: true ADR × true
 * booked nights), over the 12 months after the scrape month (the projection's horizon) and
 * the 12 ending at it.
 */
export async function strEstimateAccuracy(conn: DuckDBConnection, sourcesDir: string): Promise<StrEstimateAccuracy> {
  const index = await StrListingIndex.load(connectionReads(conn));
  await conn.run(`CREATE OR REPLACE TEMP TABLE truth_lm AS SELECT CAST(listing_id AS VARCHAR) AS id, CAST(month || '-01' AS DATE) AS month,
      true_adr, booked_nights, available_nights
    FROM read_csv($p, header = true, types = {'listing_id': 'VARCHAR', 'month': 'VARCHAR'})`, { p: join(sourcesDir, 'truth', 'listing-months.csv') });
  const rows = await queryRows(conn, `
    WITH e AS (${storeSql('str_estimate_listings')}),
    t AS (
      SELECT e.id,
        sum(t.booked_nights * t.true_adr) FILTER (WHERE t.month > date_trunc('month', l.scrape_date) AND t.month <= date_trunc('month', l.scrape_date) + INTERVAL 12 MONTH) AS rev_next,
        sum(t.booked_nights) FILTER (WHERE t.month > date_trunc('month', l.scrape_date) AND t.month <= date_trunc('month', l.scrape_date) + INTERVAL 12 MONTH) AS booked_next,
        sum(t.available_nights) FILTER (WHERE t.month > date_trunc('month', l.scrape_date) AND t.month <= date_trunc('month', l.scrape_date) + INTERVAL 12 MONTH) AS avail_next,
        sum(t.booked_nights * t.true_adr) FILTER (WHERE t.month <= date_trunc('month', l.scrape_date) AND t.month > date_trunc('month', l.scrape_date) - INTERVAL 12 MONTH) AS rev_ltm
      FROM e JOIN str_listings l USING (id) JOIN truth_lm t ON t.id = e.id
      GROUP BY e.id
    )
    SELECT e.id, e.lat, e.lng, e.bedrooms, e.bathrooms, e.property_type, e.la_code, e.revenue_ltm, t.rev_next, t.booked_next, t.avail_next, t.rev_ltm
    FROM e JOIN t USING (id)
    WHERE t.rev_next > 0 AND t.rev_ltm > 0
    ORDER BY e.id`);
  const err = { next: [] as number[], signed: [] as number[], ltm: [] as number[], naive: [] as number[], own: [] as number[], adr: [] as number[], occ: [] as number[] };
  const byConf = new Map<string, number[]>();
  let none = 0;
  for (const r of rows) {
    const lat = Number(r.lat), lng = Number(r.lng);
    const est = estimateAt(
      index,
      { lat, lng, la: r.la_code === null ? null : String(r.la_code) },
      {
        bedrooms: Number(r.bedrooms),
        bathrooms: r.bathrooms === null ? undefined : Number(r.bathrooms),
        property_type: r.property_type === 'house' || r.property_type === 'apartment' ? r.property_type : undefined,
        finish_quality: 'average',
        include_comparables: false,
      },
      String(r.id),
    );
    if (!est) {
      none++;
      continue;
    }
    const revNext = Number(r.rev_next);
    const rev = est.figures.projected_annual.revenue;
    err.next.push(Math.abs(rev / revNext - 1));
    err.signed.push(rev / revNext - 1);
    err.ltm.push(Math.abs(rev / Number(r.rev_ltm) - 1));
    err.own.push(Math.abs(Number(r.revenue_ltm) / revNext - 1));
    const trueAdr = revNext / Number(r.booked_next);
    const trueOcc = Number(r.booked_next) / Number(r.avail_next);
    err.adr.push(Math.abs(est.figures.projected_monthly.adr / trueAdr - 1));
    err.occ.push(Math.abs(est.figures.projected_annual.occupancy_pct / 100 / trueOcc - 1));
    const hits = index.near(lat, lng, 2000, String(r.id));
    const near = index.comparables(hits).map((c) => c.revenue_ltm);
    err.naive.push(Math.abs(median(near) / revNext - 1));
    const c = est.figures.confidence;
    byConf.set(c, [...(byConf.get(c) ?? []), Math.abs(rev / revNext - 1)]);
  }
  return {
    listings: err.next.length,
    no_comparables: none,
    mdape_revenue_next12: median(err.next),
    median_error_revenue_next12: median(err.signed),
    mdape_revenue_ltm: median(err.ltm),
    naive_mdape_revenue_next12: median(err.naive),
    own_estimate_mdape_revenue_next12: median(err.own),
    mdape_adr_next12: median(err.adr),
    mdape_occupancy_next12: median(err.occ),
    by_confidence: Object.fromEntries([...byConf].sort().map(([k, v]) => [k, { listings: v.length, mdape_revenue_next12: median(v) }])),
  };
}
