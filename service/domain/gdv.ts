/**
 * Development GDV (docs/valuation-gdv-rents.md): £ per sq ft of new-build sales near
 * the site in an expanding radius, else resale £ per sq ft × a new-build premium measured on
 * the build; × floor area × count per unit type. Pure.
 */
import type { FinishQuality } from './hmo.ts';
import { median } from './stats.ts';

export type UnitKind = 'house' | 'flat';

/** Search radii, metres, tried in order. */
export const GDV_RADII_M = [500, 1000, 2000, 5000, 10000] as const;
/** New-build sales of the kind needed within a radius to use their median. */
export const MIN_NEW_BUILD_SALES = 5;
/** Resales needed within a radius for the fallback. */
export const MIN_RESALES = 10;
/** New-build evidence within this radius is High confidence; further out Medium; the resale fallback Low. */
export const HIGH_CONFIDENCE_RADIUS_M = 2000;
/**
 * The premium used when a build cannot measure one (no outcode with both enough new-build and
 * resale sales): the figure measured on the 1,000,000-address synthetic build (docs/valuation-gdv-rents.md).
 */
export const DEFAULT_NEW_BUILD_PREMIUM = 1.08;
/** Sale value relative to an average specification (assumption, documented). */
export const GDV_FINISH_FACTOR: Readonly<Record<FinishQuality, number>> = {
  below_average: 0.95,
  average: 1,
  above_average: 1.05,
  very_high: 1.1,
};


export interface KindEvidence {
  property_type: UnitKind;
  basis: 'new_build' | 'resale_with_premium';
  count: number;
  radius_m: number;
  median_gbp_sqft: number;
  new_build_premium: number | null;
  /** £ per sq ft before the finish adjustment. */
  gbp_sqft: number;
}

/**
 * The smallest radius with enough new-build sales of the kind; else the smallest with enough
 * resales, × the premium. `within(r)` gives the kind's sales within r metres: the caller widens
 * the search only as far as needed (most sites stop at 1–2 km).
 */
export function expandingEvidence(kind: UnitKind, within: (radiusM: number) => readonly NearSale[], premium: number): KindEvidence | undefined {
  for (const r of GDV_RADII_M) {
    const nb = within(r).filter((s) => s.new_build);
    if (nb.length >= MIN_NEW_BUILD_SALES) {
      const m = median(nb.map((s) => s.gbp_sqft));
      return { property_type: kind, basis: 'new_build', count: nb.length, radius_m: r, median_gbp_sqft: m, new_build_premium: null, gbp_sqft: m };
    }
  }
  for (const r of GDV_RADII_M) {
    const rs = within(r).filter((s) => !s.new_build);
    if (rs.length >= MIN_RESALES) {
      const m = median(rs.map((s) => s.gbp_sqft));
      return { property_type: kind, basis: 'resale_with_premium', count: rs.length, radius_m: r, median_gbp_sqft: m, new_build_premium: premium, gbp_sqft: m * premium };
    }
  }
  return undefined;
}

export function evidenceConfidence(e: KindEvidence): 'High' | 'Medium' | 'Low' {
  if (e.basis !== 'new_build') return 'Low';
  return e.radius_m <= HIGH_CONFIDENCE_RADIUS_M ? 'High' : 'Medium';
}

const RANK = { High: 2, Medium: 1, Low: 0 } as const;

export interface GdvUnit {
  property_type: UnitKind;
  bedrooms: number;
  floor_area_sqft: number;
  count: number;
}

export function gdv(units: readonly GdvUnit[], evidence: ReadonlyMap<UnitKind, KindEvidence>, finish: FinishQuality) {
  const lines = units.map((u) => {
    const e = evidence.get(u.property_type)!;
    const gbpPerSqft = Math.round(e.gbp_sqft * GDV_FINISH_FACTOR[finish] * 100) / 100;
    const valuePerUnit = Math.round((gbpPerSqft * u.floor_area_sqft) / 1000) * 1000;
    return { ...u, gbp_per_sqft: gbpPerSqft, value_per_unit: valuePerUnit, subtotal: valuePerUnit * u.count };
  });
  const used = [...evidence.values()];
  const confidence = used.map(evidenceConfidence).reduce<'High' | 'Medium' | 'Low'>((a, b) => (RANK[b] < RANK[a] ? b : a), 'High');
  return {
    gdv: lines.reduce((t, l) => t + l.subtotal, 0),
    lines,
    evidence: used.map(({ gbp_sqft: _, ...e }) => ({ ...e, median_gbp_sqft: Math.round(e.median_gbp_sqft * 100) / 100 })),
    confidence,
    currency: 'GBP' as const,
  };
}

export interface NearSale {
  /** Metres from the site. */
  d: number;
  new_build: boolean;
  gbp_sqft: number;
}
