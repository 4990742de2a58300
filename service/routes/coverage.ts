import type { BuildResources } from '../build/resources.ts';
import { countryOfAreaCode, notCoveredReason, type CoveredSource, type PlaceForCoverage, type SourceCoverage } from '../domain/coverage.ts';

export type { PlaceForCoverage };
import { ApiError } from '../middleware/errors.ts';

/**
 * The countries a place lies in: a UPRN's record's; a postcode's, sector's or outcode's
 * postcodes'; a local authority's by its code; a point's nearest postcode's (within 2 km).
 * Empty when the build cannot tell (the place is then not refused as uncovered).
 */
export async function placeCountries(place: PlaceForCoverage, data: BuildResources): Promise<readonly string[]> {
  // Its file unreadable: 503 for the place's endpoint, never an answer that guessed coverage.
  const countries = await data.pointCountry.get().catch(() => {
    throw new ApiError('data_unavailable', 'The current data build cannot tell which country this place is in; try again later.', undefined, { 'Retry-After': '60' });
  });
  if (place.kind === 'uprn' && place.uprn != null) {
    const c = (await data.records.get()).get(place.uprn)?.country;
    if (c != null) return [c];
  }
  const area = place.postcode ?? place.sector ?? place.outcode;
  if (area) return countries.ofArea(area);
  if (place.la_code) return [countryOfAreaCode(place.la_code)].filter((c): c is string => c !== null);
  if (place.lat !== null && place.lng !== null) return [countries.at(place.lat, place.lng)?.country].filter((c): c is string => c != null);
  return [];
}

/**
 * Throws the free 404 `not_covered` when `source` covers none of the place's countries
 * (docs/api.md, "Coverage"); else the countries (empty when the build cannot tell).
 */
export async function requireCovered(source: CoveredSource | SourceCoverage, place: PlaceForCoverage, data: BuildResources): Promise<readonly string[]> {
  const countries = await placeCountries(place, data);
  const why = notCoveredReason(source, countries);
  if (why !== null) throw new ApiError('not_covered', `${place.label} is outside the data's coverage: ${why}.`);
  return countries;
}
