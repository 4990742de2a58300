/**
 * Where the planning and flood layers say anything. The layers come from planning.data.gov.uk,
 * which publishes them for England only; Natural Resources Wales' and SEPA's flood maps, and
 * Welsh and Scottish designations, are not loaded. So a Welsh or Scottish place is in no
 * feature because no feature was published for it, not because it is outside every zone: its
 * flags are unknown (null) and the answer says why (docs/risks.md, "Coverage").
 */

/** The one country the layers cover (the `country` the build gives a UPRN or postcode). */
export const PLANNING_COVERAGE_COUNTRY = 'England';

/** Why a place outside England has no flood zone or planning flags. */
export const OUTSIDE_PLANNING_COVERAGE =
  'Flood zones and planning designations come from planning.data.gov.uk, which covers England only; the Natural Resources Wales and SEPA flood maps and Welsh and Scottish designations are not loaded, so these flags are unknown here.';

/** Why a bare point's flags are given although its country is not determined. */
export const POINT_COUNTRY_UNKNOWN =
  'The country of this point is not known (no postcode centroid within 2 km of it): the layers cover England only, so outside England zone 1 and no designation mean no data, not no risk.';

/** What the answer says about coverage. */
export interface Coverage {
  /** The country the layers cover. */
  area: typeof PLANNING_COVERAGE_COUNTRY;
  /** Whether the place lies in it: null when its country is not known (a bare point). */
  covered: boolean | null;
  /** Why the flags are null (not covered), or why they may mislead (country unknown); null when covered. */
  note: string | null;
}

/**
 * The coverage of a place in `country` (England, Wales or Scotland; null when the build does
 * not know it: not covered, as the ETL has it). `determined` false for a bare point whose
 * country could not be found (no postcode near it). `placedBy`: for a point, the distance to
 * the postcode centroid its country was taken from, said in the note.
 */
export function planningCoverage(country: string | null, determined = true, placedBy?: { distance_m: number }): Coverage {
  if (!determined) return { area: PLANNING_COVERAGE_COUNTRY, covered: null, note: POINT_COUNTRY_UNKNOWN };
  const covered = country === PLANNING_COVERAGE_COUNTRY;
  const why = covered ? null : OUTSIDE_PLANNING_COVERAGE;
  if (!placedBy) return { area: PLANNING_COVERAGE_COUNTRY, covered, note: why };
  const placed = `The point's country (${country}) is the nearest postcode centroid's, ${placedBy.distance_m} m away.`;
  return { area: PLANNING_COVERAGE_COUNTRY, covered, note: why ? `${why} ${placed}` : placed };
}
