import {
  defaultBathrooms, estimateStr, proximity, similarity, STR_ESTIMATE,
  type PropertyKind, type StrComparable, type StrEstimateFigures, type StrSubject,
} from '../domain/str/estimate.ts';
import type { NearHits, StrListingIndex } from './listing-index.ts';

/** Search radii, smallest first: the comparables search widens only while a farther listing could still be chosen. */
export const RINGS_M = [250, 500, 1000, STR_ESTIMATE.radiusM] as const;
/** "Nearby" (property type inference, the LA whose seasonality applies): the first ring with this many listings. */
export const NEARBY_MIN = 30;

export interface EstimateInput {
  bedrooms: number;
  bathrooms?: number | undefined;
  property_type?: PropertyKind | undefined;
  finish_quality: StrSubject['finish_quality'];
  include_comparables: boolean;
}

/**
 * The estimate at a point from a build's listing index; undefined when no listing lies within
 * 2 km. `excludeId` leaves one listing out (leave-one-out accuracy).
 *
 * The comparables are exactly the `maxComparables` highest-weighted listings within 2 km, but
 * found ring by ring: a listing beyond radius r weighs at most proximity(r) (similarity ≤ 1),
 * so once the 100 best within r all weigh more than that, no farther listing can displace one
 * and the wider rings are never scanned. In a dense market (thousands of listings within 2 km)
 * this reads a few hundred.
 */
export function estimateAt(
  index: StrListingIndex,
  at: { lat: number; lng: number; la?: string | null },
  input: EstimateInput,
  excludeId?: string,
): { figures: StrEstimateFigures; sector: string | null } | undefined {
  let nearby: NearHits | undefined;
  let ring = 0;
  for (; ring < RINGS_M.length; ring++) {
    nearby = index.near(at.lat, at.lng, RINGS_M[ring]!, excludeId);
    if (nearby.rows.length >= NEARBY_MIN) break;
  }
  ring = Math.min(ring, RINGS_M.length - 1);
  if (!nearby || nearby.rows.length === 0) return undefined;
  const subject: StrSubject = {
    bedrooms: input.bedrooms,
    bathrooms: input.bathrooms ?? defaultBathrooms(input.bedrooms),
    property_type: input.property_type ?? index.inferType(input.bedrooms, nearby),
    finish_quality: input.finish_quality,
  };
  const season = index.seasonality(at.la ?? index.laOf(nearby));
  const k = STR_ESTIMATE.maxComparables;
  let comps: StrComparable[] = [];
  for (let r = ring; r < RINGS_M.length; r++) {
    const hits = r === ring ? nearby : index.near(at.lat, at.lng, RINGS_M[r]!, excludeId);
    comps = index.top(subject, hits, k);
    if (comps.length === k && Math.min(...comps.map((c) => similarity(subject, c) * proximity(c.distance_m))) > proximity(RINGS_M[r]!)) break;
  }
  const figures = estimateStr(subject, comps, season, { includeComparables: input.include_comparables, radiusM: STR_ESTIMATE.radiusM });
  return { figures, sector: index.nearestSector(nearby) };
}
