import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DealsQuerySchema } from '../../schemas/api/listings.ts';
import { BuildResources } from '../../service/build/resources.ts';
import { fileDataSource } from '../../service/build/source.ts';
import sourcingDeals from '../../service/routes/v1/sourcing-deals.ts';

/**
 * Precision of GET /sourcing/deals against the synthetic truth: per outcode, the top K
 * below-market deals the endpoint ranks (its own handler on the published build, no HTTP),
 * and what share of them the truth knows to be underpriced (asking 10% or more under the true
 * value). Beside it, the naive baseline the issue names: the outcode's available for-sale
 * listings priced furthest below the outcode's median asking price, top K.
 */
export interface PrecisionResult {
  k: number;
  outcodes: number;
  truly_underpriced_share: number;
  deals: { picked: number; hits: number; precision: number; by_confidence: Record<string, { picked: number; hits: number }> };
  baseline: { picked: number; hits: number; precision: number };
  per_outcode: { outcode: string; listings: number; deals_picked: number; deals_hits: number; baseline_picked: number; baseline_hits: number }[];
}

export async function dealsPrecision(dataDir: string, sourcesDir: string, k = 20): Promise<PrecisionResult> {
  const build = fileDataSource(dataDir).current();
  if (!build) throw new Error(`no published build in ${dataDir}`);
  const truthRows = readFileSync(join(sourcesDir, 'truth', 'listings-market.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
  const underpriced = new Map(truthRows.map((t) => [t[0]!, t[6] === '1']));
  const data = new BuildResources(build);
  try {
    const listings = (await data.listings.get())!;
    const forSale = [...listings.all()].filter((l) => l.channel === 'sale' && l.status === 'available');
    const byOutcode = new Map<string, typeof forSale>();
    for (const l of forSale) byOutcode.set(l.outcode, [...(byOutcode.get(l.outcode) ?? []), l]);
    const res: PrecisionResult = {
      k, outcodes: 0,
      truly_underpriced_share: forSale.filter((l) => underpriced.get(l.listing_id)).length / forSale.length,
      deals: { picked: 0, hits: 0, precision: 0, by_confidence: {} },
      baseline: { picked: 0, hits: 0, precision: 0 },
      per_outcode: [],
    };
    for (const [outcode, ls] of [...byOutcode].sort((a, b) => a[0].localeCompare(b[0]))) {
      const query = DealsQuerySchema.parse({ outcode, per_page: String(k) });
      const answer = (await sourcingDeals.handler({ query, data, build } as never)) as { deals: { listing_id: string; valuation: { confidence: string } }[] };
      const picked = answer.deals;
      const hits = picked.filter((d) => underpriced.get(d.listing_id)).length;
      for (const d of picked) {
        const c = (res.deals.by_confidence[d.valuation.confidence] ??= { picked: 0, hits: 0 });
        c.picked++;
        if (underpriced.get(d.listing_id)) c.hits++;
      }
      const prices = ls.map((l) => l.price).sort((a, b) => a - b);
      const median = prices.length % 2 ? prices[(prices.length - 1) / 2]! : (prices[prices.length / 2 - 1]! + prices[prices.length / 2]!) / 2;
      const base = ls.filter((l) => l.price < median).sort((a, b) => a.price - b.price || (a.listing_id < b.listing_id ? -1 : 1)).slice(0, k);
      const baseHits = base.filter((l) => underpriced.get(l.listing_id)).length;
      res.outcodes++;
      res.deals.picked += picked.length;
      res.deals.hits += hits;
      res.baseline.picked += base.length;
      res.baseline.hits += baseHits;
      res.per_outcode.push({ outcode, listings: ls.length, deals_picked: picked.length, deals_hits: hits, baseline_picked: base.length, baseline_hits: baseHits });
    }
    res.deals.precision = res.deals.picked ? res.deals.hits / res.deals.picked : 0;
    res.baseline.precision = res.baseline.picked ? res.baseline.hits / res.baseline.picked : 0;
    return res;
  } finally {
    await data.close();
  }
}
