/**
 * The country of a bare point (lat, lng): the country of the nearest postcode centroid, if one
 * lies within NEAREST_POSTCODE_MAX_M. It decides whether a point is covered by the planning
 * and flood layers (England only), so a point in Cardiff is not told "zone 1". Farther from
 * every postcode than that (at sea, or where the build has no postcodes), the country is
 * unknown. Near a border the nearest centroid can lie across it; the answer names the
 * postcode it went by (docs/risks.md, "Coverage"). Centroids at the same distance: the
 * lowest postcode's, so the heap's R-tree and the file's cells (point-country-file.ts) agree.
 */
import { Points } from '../../lib/geo/points.ts';
import { planningCoverage, type Coverage } from '../domain/planning-coverage.ts';
import type { BuildStore } from '../store/store.ts';

/** A point farther than this from every postcode centroid has no country here. */
export const NEAREST_POSTCODE_MAX_M = 2_000;
/** Centroids looked at for a tie at the nearest distance (more than this many at one distance: the first of them found). */
export const NEAREST_TIES = 8;

export interface PointCountryAnswer {
  country: string;
  /** Metres to the centroid the country was taken from. */
  distance_m: number;
}

/** The countries of areas and of bare points: in the heap (PointCountry) or read where they lie (point-country-file.ts). */
export interface PointCountryIndex {
  /** The countries the postcodes of a postcode, sector or outcode lie in, sorted; empty when the build has none. */
  ofArea(code: string): readonly string[];
  /** The nearest postcode centroid's country within NEAREST_POSTCODE_MAX_M (local metres), or null. */
  at(lat: number, lng: number): PointCountryAnswer | null;
}

/** Of candidates nearest first: the lowest postcode among those at the nearest distance. */
export function nearestOfTies<T>(found: readonly T[], d: (t: T) => number, postcode: (t: T) => string): T | undefined {
  let best = found[0];
  for (const f of found) if (d(f) === d(found[0]!) && postcode(f) < postcode(best!)) best = f;
  return best;
}

export class PointCountry implements PointCountryIndex {
  private constructor(
    private readonly points: Points,
    private readonly country: Uint8Array,
    private readonly names: readonly string[],
    private readonly postcodes: readonly string[],
    private readonly areas: ReadonlyMap<string, readonly string[]> = new Map(),
  ) {}

  static build(lat: ArrayLike<number>, lng: ArrayLike<number>, country: readonly string[]): PointCountry {
    const names = [...new Set(country)].sort();
    return new PointCountry(new Points(lat, lng), Uint8Array.from(country, (c) => names.indexOf(c)), names, country.map(() => ''));
  }

  /**
   * From the postcode directory's rows: the points are those with a position; `areas` maps
   * each postcode, sector and outcode to the countries its postcodes lie in.
   */
  static fromPostcodes(rows: readonly { postcode: string; lat: number | null; lng: number | null; country: string }[]): PointCountry {
    const placed = rows.filter((r) => r.lat !== null && r.lng !== null);
    const areas = new Map<string, Set<string>>();
    for (const r of rows) {
      for (const key of areaKeys(r.postcode)) {
        const set = areas.get(key) ?? new Set<string>();
        areas.set(key, set.add(r.country));
      }
    }
    const names = [...new Set(placed.map((r) => r.country))].sort();
    return new PointCountry(
      new Points(placed.map((r) => r.lat!), placed.map((r) => r.lng!)),
      Uint8Array.from(placed, (r) => names.indexOf(r.country)),
      names,
      placed.map((r) => r.postcode),
      new Map([...areas].map(([k, v]) => [k, [...v].sort()])),
    );
  }

  ofArea(code: string): readonly string[] {
    return this.areas.get(code) ?? [];
  }

  at(lat: number, lng: number): PointCountryAnswer | null {
    const found = this.points.nearest(lat, lng, NEAREST_TIES, NEAREST_POSTCODE_MAX_M).map((i) => ({ i, d: this.points.localDistance(i, lat, lng) }));
    const best = nearestOfTies(found, (f) => f.d, (f) => this.postcodes[f.i]!);
    if (best === undefined) return null;
    return { country: this.names[this.country[best.i]!]!, distance_m: Math.round(best.d) };
  }
}

/** The areas a postcode is in: itself, its sector, its outcode. */
export function areaKeys(postcode: string): string[] {
  return [postcode, postcode.slice(0, -2), postcode.split(' ')[0]!];
}

export async function loadPointCountry(store: BuildStore): Promise<PointCountry> {
  return PointCountry.fromPostcodes(await store.rows('postcode_countries_all'));
}

/** A bare point's coverage by the England-only planning layers: by its nearest postcode's country, else not determined. */
export function pointCoverage(countries: PointCountryIndex, lat: number, lng: number): Coverage {
  const at = countries.at(lat, lng);
  return at ? planningCoverage(at.country, true, at) : planningCoverage(null, false);
}
