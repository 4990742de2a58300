import type { Confidence } from './valuation-models/sale.ts';

/**
 * Ranking of sourcing deals by the strength of their evidence (docs/sourcing.md). Pure.
 *
 * below_market: a listing's discount to its valuation only counts beyond the valuation's
 * typical error, so the score is the discount less 1.5 × the median absolute error of the
 * valuation's confidence rung (the backtest's MdAPE against the true value, docs/valuation.md:
 * High 5.7%, Medium 7.8%, Low 14.9%; 1.5 × MdAPE is about one standard deviation). A Low
 * valuation therefore never outranks a High one of the same discount.
 *
 * yield: the gross yield on the asking price only counts beyond the rent estimate's typical
 * error (by its source), so the score is the yield lowered by that error less the area's yield.
 */
export const VALUATION_TYPICAL_ERROR_PCT: Readonly<Record<Confidence, number>> = { High: 5.7, Medium: 7.8, Low: 14.9 };
export const ERROR_MULTIPLE = 1.5;
/** Typical error of an area rent by source: many local lets, the authority's ONS figure, a few lets. */
export const RENT_TYPICAL_ERROR_PCT: Readonly<Record<string, number>> = { evidence: 6, ons_district: 12, evidence_thin: 15 };

export function discountPct(value: number, price: number): number {
  return Math.round(((value - price) / value) * 10_000) / 100;
}

export function belowMarketScore(discount: number, confidence: Confidence): number {
  return Math.round((discount - ERROR_MULTIPLE * VALUATION_TYPICAL_ERROR_PCT[confidence]) * 100) / 100;
}

export function grossYieldPct(rentPcm: number, price: number): number {
  return Math.round(((rentPcm * 12) / price) * 10_000) / 100;
}

export function yieldScore(grossYield: number, areaYield: number, rentSource: string): number {
  const err = RENT_TYPICAL_ERROR_PCT[rentSource] ?? 15;
  return Math.round((grossYield * (1 - (ERROR_MULTIPLE * err) / 100) - areaYield) * 100) / 100;
}

/** Highest score first; ties by the larger discount (or yield), then by id for a stable order. */
export function rankDeals<T extends { score: number; tiebreak: number; id: string }>(deals: T[]): T[] {
  return deals.sort(dealOrder);
}

/** The ranking order of rankDeals: score, then the discount or yield, then the listing id. */
export const dealOrder = (a: { score: number; tiebreak: number; id: string }, b: { score: number; tiebreak: number; id: string }): number =>
  b.score - a.score || b.tiebreak - a.tiebreak || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** What a listing's deal is judged on: its sale valuation, area rent and area yield (service/location/deals-set.ts). */
export interface DealEvidence {
  value: number;
  confidence: Confidence;
  method: string;
  rent: { pcm: number; area: string; source: string; sample_size: number | null } | null;
  areaYield: { pct: number; sample_size: number } | null;
}

/** The strategy and thresholds of a deals query. */
export interface DealCriteria {
  strategy: 'below_market' | 'yield';
  /** below_market: the least discount (default DEFAULT_MIN_DISCOUNT_PCT). */
  min_discount_pct?: number | undefined;
  /** yield: the least gross yield (default the area's). */
  min_yield_pct?: number | undefined;
}

export const DEFAULT_MIN_DISCOUNT_PCT = 10;

/** A qualifying listing: `i` and `d` as given, its score and the figures it was scored on. */
export interface ScoredDeal { id: string; tiebreak: number; score: number; i: number; d: number | null; discount: number; gross: number | null }

/**
 * The deals among `candidates` (for-sale listings `i` at distance `d`), unranked, and how many
 * were considered: a listing without a UPRN or without evidence is counted, not scored.
 */
export function scoreDeals(
  candidates: readonly { i: number; d: number | null }[],
  listingOf: (i: number) => { listing_id: string; uprn: number | string | null; price: number },
  evidenceOf: (i: number) => DealEvidence | undefined,
  criteria: DealCriteria,
): { deals: ScoredDeal[]; considered: { for_sale: number; valued: number; without_uprn: number; without_valuation: number } } {
  const considered = { for_sale: candidates.length, valued: 0, without_uprn: 0, without_valuation: 0 };
  const deals: ScoredDeal[] = [];
  for (const { i, d } of candidates) {
    const l = listingOf(i);
    const e = evidenceOf(i);
    if (l.uprn === null) { considered.without_uprn++; continue; }
    if (!e) { considered.without_valuation++; continue; }
    considered.valued++;
    const discount = discountPct(e.value, l.price);
    const gross = e.rent ? grossYieldPct(e.rent.pcm, l.price) : null;
    let score: number;
    let tiebreak: number;
    if (criteria.strategy === 'below_market') {
      if (discount < (criteria.min_discount_pct ?? DEFAULT_MIN_DISCOUNT_PCT)) continue;
      score = belowMarketScore(discount, e.confidence);
      tiebreak = discount;
    } else {
      if (gross === null || !e.rent) continue;
      const floor = criteria.min_yield_pct ?? e.areaYield?.pct;
      if (floor === undefined || gross <= floor) continue;
      if (!e.areaYield) continue;
      score = yieldScore(gross, e.areaYield.pct, e.rent.source);
      tiebreak = gross;
    }
    deals.push({ id: l.listing_id, tiebreak, score, i, d, discount, gross });
  }
  return { deals, considered };
}
