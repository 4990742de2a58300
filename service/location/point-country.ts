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
    private readonly areas: ReadonlyMap<string, readonly string[]> = new Map(),
  ) {}

  static build(lat: ArrayLike<number>, lng: ArrayLike<number>, country: readonly string[]): PointCountry {
    const names = [...new Set(country)].sort();
    return new PointCountry(new Points(lat, lng), Uint8Array.from(country, (c) => names.indexOf(c)), names);
  }

  /**
   * From the postcode directory's rows: the points are those with a position; `areas` maps
   * each postcode, sector and outcode to the countries its postcodes lie in.
   */
  static fromPostcodes(rows: readonly { postcode: string; lat: number | null; lng: number | null; country: string }[]): PointCountry {
    const placed = rows.filter((r) => r.lat !== null && r.lng !== null);
    const areas = new Map<string, Set<string>>();
    for (const r of rows) {
      for (const key of [r.postcode, r.postcode.slice(0, -2), r.postcode.split(' ')[0]!]) {
        const set = areas.get(key) ?? new Set<string>();
        areas.set(key, set.add(r.country));
      }
    }
    const names = [...new Set(placed.map((r) => r.country))].sort();
    return new PointCountry(
      new Points(placed.map((r) => r.lat!), placed.map((r) => r.lng!)),
      Uint8Array.from(placed, (r) => names.indexOf(r.country)),
      names,
      new Map([...areas].map(([k, v]) => [k, [...v].sort()])),
    );
  }

  /** The countries the postcodes of a postcode, sector or outcode lie in; empty when the build has none. */
  ofArea(code: string): readonly string[] {
    return this.areas.get(code) ?? [];
  }

  /** The nearest postcode centroid's country within NEAREST_POSTCODE_MAX_M (local metres), or null. */
  at(lat: number, lng: number): PointCountryAnswer | null {
    const [i] = this.points.nearest(lat, lng, 1, NEAREST_POSTCODE_MAX_M);
    if (i === undefined) return null;
    return { country: this.names[this.country[i]!]!, distance_m: Math.round(this.points.localDistance(i, lat, lng)) };
  }
}

export async function loadPointCountry(store: BuildStore): Promise<PointCountry> {
  return PointCountry.fromPostcodes(await store.rows('postcode_countries_all'));
}

/** A bare point's coverage by the England-only planning layers: by its nearest postcode's country, else not determined. */
export function pointCoverage(countries: PointCountry, lat: number, lng: number): Coverage {
  const at = countries.at(lat, lng);
  return at ? planningCoverage(at.country, true, at) : planningCoverage(null, false);
}
