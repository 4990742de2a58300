/**
 * The country of a bare point (lat, lng): the country of the nearest postcode centroid, if one
 * lies within NEAREST_POSTCODE_MAX_M. It decides whether a point is covered by the planning
 * and flood layers (England only), so a point in Cardiff is not told "zone 1". Farther from
 * every postcode than that (at sea, or where the build has no postcodes), the country is
 * unknown. Near a border the nearest centroid can lie across it; the answer names the
 * postcode it went by (docs/risks.md, "Coverage").
 */
import { Points } from '../../lib/geo/points.ts';
import { planningCoverage, type Coverage } from '../domain/planning-coverage.ts';
import type { BuildStore } from '../store/store.ts';

/** A point farther than this from every postcode centroid has no country here. */
export const NEAREST_POSTCODE_MAX_M = 2_000;

export interface PointCountryAnswer {
  country: string;
  /** Metres to the centroid the country was taken from. */
  distance_m: number;
}

export class PointCountry {
  private constructor(
    private readonly points: Points,
    private readonly country: Uint8Array,
    private readonly names: readonly string[],
  ) {}

  static build(lat: ArrayLike<number>, lng: ArrayLike<number>, country: readonly string[]): PointCountry {
    const names = [...new Set(country)].sort();
    return new PointCountry(new Points(lat, lng), Uint8Array.from(country, (c) => names.indexOf(c)), names);
  }

  /** The nearest postcode centroid's country within NEAREST_POSTCODE_MAX_M (local metres), or null. */
  at(lat: number, lng: number): PointCountryAnswer | null {
    const [i] = this.points.nearest(lat, lng, 1, NEAREST_POSTCODE_MAX_M);
    if (i === undefined) return null;
    return { country: this.names[this.country[i]!]!, distance_m: Math.round(this.points.localDistance(i, lat, lng)) };
  }
}

export async function loadPointCountry(store: BuildStore): Promise<PointCountry> {
  const c = await store.queryColumns('postcode_countries_all');
  return PointCountry.build((c.lat as unknown[]).map(Number), (c.lng as unknown[]).map(Number), (c.country as unknown[]).map(String));
}

/** A bare point's coverage by the England-only planning layers: by its nearest postcode's country, else not determined. */
export function pointCoverage(countries: PointCountry, lat: number, lng: number): Coverage {
  const at = countries.at(lat, lng);
  return at ? planningCoverage(at.country, true, at) : planningCoverage(null, false);
}
