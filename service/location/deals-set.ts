import { LRUCache } from 'lru-cache';
import type { DealEvidence } from '../domain/deals.ts';
import type { BuildStore } from '../store/store.ts';
import { type SaleValuer } from '../valuers/sale-valuer.ts';
import { monthText } from '../../schemas/months.ts';
import type { ListingsSet } from './listings-set.ts';
import type { Listing } from './sets.ts';

/**
 * The evidence behind an available for-sale listing (GET /sourcing/deals): the sale valuation
 * of its matched UPRN, an area rent for its bedrooms and the area's gross yield, each from the
 * most local area that has one (sector, then outcode, then local authority). Computed when a
 * query first selects the listing and kept in a bounded cache, not for every listing when the
 * build opens: valuing every for-sale listing at open is a cold-start cost that grows with the
 * country (0.5 s at 1M addresses), and a query values only the listings of its place.
 */
export interface DealsSet {
  listings: ListingsSet;
  /** Undefined for rents, unavailable listings and those without a UPRN or a valuation. */
  evidenceOf(l: Listing): DealEvidence | undefined;
  valuationAsOf: string;
}

interface AreaFigure { median_pcm: number; source: string; sample_size: number | null; yield_pct: number | null; yield_sales: number | null }

/** Listings whose evidence is kept (a few hundred bytes each): a busy city's for-sale listings several times over. */
const EVIDENCE_KEPT = 50_000;

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
  const kept = new LRUCache<string, { e: DealEvidence | undefined }>({ max: EVIDENCE_KEPT });
  const evidence = (l: Listing): DealEvidence | undefined => {
    if (l.channel !== 'sale' || l.status !== 'available' || l.uprn === null) return undefined;
    const v = valuer.value(l.uprn);
    if (!v || v.estimate.value === null) return undefined;
    const beds = Math.min(l.bedrooms, 4);
    const chain: [string, string | null][] = [['sector', l.sector], ['outcode', l.outcode], ['district', l.la_code]];
    const figures = chain.flatMap(([level, code]) => {
      const f = code ? areas.get(`${level}|${code}|${beds}`) : undefined;
      return f ? [{ area: `${level} ${code}`, f }] : [];
    });
    const rentFig = figures.find((x) => x.f.source === 'evidence') ?? figures[0];
    const yieldFig = figures.find((x) => x.f.yield_pct !== null);
    return {
      value: v.estimate.value, confidence: v.estimate.confidence, method: v.estimate.method,
      rent: rentFig ? { pcm: rentFig.f.median_pcm, area: rentFig.area, source: rentFig.f.source, sample_size: rentFig.f.sample_size } : null,
      areaYield: yieldFig ? { pct: yieldFig.f.yield_pct!, sample_size: yieldFig.f.yield_sales ?? 0 } : null,
    };
  };
  return {
    listings,
    evidenceOf(l) {
      // Keyed by the id alone: within a build a listing's row, so its evidence, is one.
      let k = kept.get(l.listing_id);
      if (!k) kept.set(l.listing_id, (k = { e: evidence(l) }));
      return k.e;
    },
    valuationAsOf: monthText(valuer.asOfMonth),
  };
}
