import { DEFAULT_NEW_BUILD_PREMIUM, GDV_RADII_M, expandingEvidence, gdv, type GdvUnit, type KindEvidence, type NearSale, type UnitKind } from '../domain/gdv.ts';
import type { FinishQuality } from '../domain/hmo.ts';
import type { SqftSalesIndex } from './evidence.ts';

const MAX_RADIUS = GDV_RADII_M.at(-1)!;

/**
 * Values a development's unit mix at a site from one build's floor-area-matched sales and its
 * measured new-build premiums: the shape of every valuer (valued, or not_found with the reason).
 */
export class GdvValuer {
  constructor(
    private readonly sales: SqftSalesIndex,
    private readonly premiums: ReadonlyMap<string, number>,
  ) {}

  value(site: { lat: number; lng: number }, units: readonly GdvUnit[], finish: FinishQuality) {
    const { sales, premiums } = this;
    // Sales within r of the site, by kind, gathered once per radius actually needed.
    const byRadius = new Map<number, Record<UnitKind, NearSale[]>>();
    const within = (r: number) => {
      let near = byRadius.get(r);
      if (!near) {
        const n: Record<UnitKind, NearSale[]> = { house: [], flat: [] };
        // In no promised order: the evidence is counts and medians of these.
        sales.within(site.lat, site.lng, r, (s, d) => n[s.flat === 1 ? 'flat' : 'house'].push({ d, new_build: s.newBuild === 1, gbp_sqft: s.gbpSqft }));
        byRadius.set(r, (near = n));
      }
      return near;
    };
    const evidence = new Map<UnitKind, KindEvidence>();
    for (const kind of [...new Set(units.map((u) => u.property_type))].sort()) {
      const premium = premiums.get(kind) ?? premiums.get('all') ?? DEFAULT_NEW_BUILD_PREMIUM;
      const e = expandingEvidence(kind, (r) => within(r)[kind], premium);
      if (!e) return { kind: 'not_found' as const, reason: `Too few ${kind} sales with a floor area within ${MAX_RADIUS / 1000} km of the site to value ${kind}s.` };
      evidence.set(kind, e);
    }
    return { kind: 'valued' as const, valuation: gdv(units, evidence, finish) };
  }
}
