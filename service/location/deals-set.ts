import type { DealEvidence } from '../domain/deals.ts';
import type { BuildStore } from '../store/store.ts';
import { type SaleValuer } from '../valuers/sale-valuer.ts';
import { monthText } from '../../schemas/months.ts';
import type { ListingsSet } from './sets.ts';

/**
 * The evidence behind every available for-sale listing of a build, computed once when the
 * build opens (a valuation per listing is too slow to repeat per request at 20 ms): the sale
 * valuation of its matched UPRN, an area rent for its bedrooms and the area's gross yield, each
 * from the most local area that has one (sector, then outcode, then local authority).
 */
export interface DealsSet {
  listings: ListingsSet;
  /** Indexed like `listings.listings`; undefined for rents, unavailable listings and those without a UPRN or a valuation. */
  evidence: (DealEvidence | undefined)[];
  noValuation: Set<number>;
  valuationAsOf: string;
}

interface AreaFigure { median_pcm: number; source: string; sample_size: number | null; yield_pct: number | null; yield_sales: number | null }

export async function loadDealsSet(listings: ListingsSet | undefined, valuer: SaleValuer, store: BuildStore): Promise<DealsSet | undefined> {
  if (!listings) return undefined;
  const areas = new Map<string, AreaFigure>();
  if (store.tables.has('rents_area') && store.tables.has('yields_area')) {
    for (const r of await store.rows('area_rents_yields_all')) {
      areas.set(`${r.area_level}|${r.area_code}|${r.bedrooms}`, {
        median_pcm: r.median_pcm, source: r.source, sample_size: r.sample_size, yield_pct: r.gross_yield_pct, yield_sales: r.yield_sales,
      });
    }
  }
  const evidence: (DealEvidence | undefined)[] = [];
  const noValuation = new Set<number>();
  listings.listings.forEach((l, i) => {
    if (l.channel !== 'sale' || l.status !== 'available' || l.uprn === null) return;
    const v = valuer.value(l.uprn);
    if (!v || v.estimate.value === null) { noValuation.add(i); return; }
    const beds = Math.min(l.bedrooms, 4);
    const chain: [string, string | null][] = [['sector', l.sector], ['outcode', l.outcode], ['district', l.la_code]];
    const figures = chain.flatMap(([level, code]) => {
      const f = code ? areas.get(`${level}|${code}|${beds}`) : undefined;
      return f ? [{ area: `${level} ${code}`, f }] : [];
    });
    const rentFig = figures.find((x) => x.f.source === 'evidence') ?? figures[0];
    const yieldFig = figures.find((x) => x.f.yield_pct !== null);
    evidence[i] = {
      value: v.estimate.value, confidence: v.estimate.confidence, method: v.estimate.method,
      rent: rentFig ? { pcm: rentFig.f.median_pcm, area: rentFig.area, source: rentFig.f.source, sample_size: rentFig.f.sample_size } : null,
      areaYield: yieldFig ? { pct: yieldFig.f.yield_pct!, sample_size: yieldFig.f.yield_sales ?? 0 } : null,
    };
  });
  return { listings, evidence, noValuation, valuationAsOf: monthText(valuer.asOfMonth) };
}
