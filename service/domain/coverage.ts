/**
 * Which countries each source covers, and why a place outside them has no answer: the one
 * rule for places no source covers (docs/api.md, "Coverage: places no source covers"). An
 * endpoint whose answer needs a source asks `notCoveredReason`; a place in none of the
 * source's countries is a free 404 `not_covered` naming the source and why, never a 200 with
 * nothing or a "too few sales" that hides the true reason.
 */
import { SCOTTISH_SALES_NOT_OPEN } from './scotland.ts';

/** A resolved place (service/location's Place or Around, a STR area): what its country is read from. */
export interface PlaceForCoverage {
  kind: string;
  label: string;
  uprn?: number | null;
  postcode?: string | null;
  sector?: string | null;
  outcode?: string | null;
  la_code: string | null;
  lat: number | null;
  lng: number | null;
}

export interface SourceCoverage {
  /** The countries (as the build names them: England, Wales, Scotland) the source covers. */
  countries: readonly string[];
  /** Why a place elsewhere has nothing from it: names the source. */
  why: string;
}

export const SOURCE_COVERAGE = {
  price_paid: { countries: ['England', 'Wales'], why: SCOTTISH_SALES_NOT_OPEN },
  gias: {
    countries: ['England'],
    why: 'GIAS (Get Information About Schools) covers schools in England only; Wales\'s and Scotland\'s school registers are not loaded',
  },
  police_uk: {
    countries: ['England', 'Wales'],
    why: 'police.uk street-level crime comes from the forces of England, Wales and Northern Ireland; Police Scotland does not publish to it',
  },
} as const satisfies Record<string, SourceCoverage>;

export type CoveredSource = keyof typeof SOURCE_COVERAGE;

/**
 * Why `source` has nothing for a place in `countries` (the countries its postcodes lie in), or
 * null when it covers the place. A place in at least one covered country is covered (a
 * border outcode); a place whose country is not known (empty list) is not refused here.
 */
export function notCoveredReason(source: CoveredSource | SourceCoverage, countries: readonly string[]): string | null {
  const c: SourceCoverage = typeof source === 'string' ? SOURCE_COVERAGE[source] : source;
  if (countries.length === 0 || countries.some((x) => c.countries.includes(x))) return null;
  return c.why;
}

/**
 * The short-term-let source's coverage in one build: Inside Airbnb scrapes chosen cities, so it
 * covers the countries the build's listings lie in (`listingCountries`), and nothing elsewhere.
 */
export function strCoverage(listingCountries: Iterable<string | null>): SourceCoverage {
  const countries = [...new Set([...listingCountries].filter((c): c is string => c !== null))].sort();
  const why = countries.length === 0
    ? 'this build has no short-term-let listings (Inside Airbnb\'s city scrapes)'
    : `the short-term-let listings (Inside Airbnb's city scrapes) of this build cover ${countries.join(', ')} only`;
  return { countries, why };
}

/** The country a GSS local authority code lies in, by its first letter; null for another letter. */
export function countryOfAreaCode(code: string): string | null {
  return ({ E: 'England', W: 'Wales', S: 'Scotland', N: 'Northern Ireland' } as Record<string, string>)[code[0] ?? ''] ?? null;
}
