import { z } from 'zod';
import { num, optNum, optStr } from './fields.ts';

/**
 * Inside Airbnb file formats. The header constants are the published column orders; the
 * synthetic-region generator writes files with exactly these headers, and the readers
 * detect the detailed vs summary variants by them.
 */

/** Detailed `listings.csv.gz`: 79 columns, as in the 2025-09-26 Bristol scrape. */
export const AIRBNB_LISTINGS_HEADER = [
  'id',
  'listing_url',
  'scrape_id',
  'last_scraped',
  'source',
  'name',
  'description',
  'neighborhood_overview',
  'picture_url',
  'host_id',
  'host_url',
  'host_name',
  'host_since',
  'host_location',
  'host_about',
  'host_response_time',
  'host_response_rate',
  'host_acceptance_rate',
  'host_is_superhost',
  'host_thumbnail_url',
  'host_picture_url',
  'host_neighbourhood',
  'host_listings_count',
  'host_total_listings_count',
  'host_verifications',
  'host_has_profile_pic',
  'host_identity_verified',
  'neighbourhood',
  'neighbourhood_cleansed',
  'neighbourhood_group_cleansed',
  'latitude',
  'longitude',
  'property_type',
  'room_type',
  'accommodates',
  'bathrooms',
  'bathrooms_text',
  'bedrooms',
  'beds',
  'amenities',
  'price',
  'minimum_nights',
  'maximum_nights',
  'minimum_minimum_nights',
  'maximum_minimum_nights',
  'minimum_maximum_nights',
  'maximum_maximum_nights',
  'minimum_nights_avg_ntm',
  'maximum_nights_avg_ntm',
  'calendar_updated',
  'has_availability',
  'availability_30',
  'availability_60',
  'availability_90',
  'availability_365',
  'calendar_last_scraped',
  'number_of_reviews',
  'number_of_reviews_ltm',
  'number_of_reviews_l30d',
  'availability_eoy',
  'number_of_reviews_ly',
  'estimated_occupancy_l365d',
  'estimated_revenue_l365d',
  'first_review',
  'last_review',
  'review_scores_rating',
  'review_scores_accuracy',
  'review_scores_cleanliness',
  'review_scores_checkin',
  'review_scores_communication',
  'review_scores_location',
  'review_scores_value',
  'license',
  'instant_bookable',
  'calculated_host_listings_count',
  'calculated_host_listings_count_entire_homes',
  'calculated_host_listings_count_private_rooms',
  'calculated_host_listings_count_shared_rooms',
  'reviews_per_month',
] as const;

/** Summary `listings.csv`: 18 columns; `price` is an integer with no currency sign. */
export const AIRBNB_LISTINGS_SUMMARY_HEADER = [
  'id',
  'name',
  'host_id',
  'host_name',
  'neighbourhood_group',
  'neighbourhood',
  'latitude',
  'longitude',
  'room_type',
  'price',
  'minimum_nights',
  'number_of_reviews',
  'last_review',
  'reviews_per_month',
  'calculated_host_listings_count',
  'availability_365',
  'number_of_reviews_ltm',
  'license',
] as const;

/** `calendar.csv.gz`: one row per listing per day for the next 365 days. */
export const AIRBNB_CALENDAR_HEADER = [
  'listing_id',
  'date',
  'available',
  'price',
  'adjusted_price',
  'minimum_nights',
  'maximum_nights',
] as const;

/** Detailed `reviews.csv.gz`: one row per review, `comments` may span lines. */
export const AIRBNB_REVIEWS_HEADER = ['listing_id', 'id', 'date', 'reviewer_id', 'reviewer_name', 'comments'] as const;

/** Summary `reviews.csv`: one row per review, listing and date only. */
export const AIRBNB_REVIEWS_SUMMARY_HEADER = ['listing_id', 'date'] as const;

/** `room_type` values Inside Airbnb publishes. */
export const AIRBNB_ROOM_TYPES = ['Entire home/apt', 'Private room', 'Shared room', 'Hotel room'] as const;
export type AirbnbRoomType = (typeof AIRBNB_ROOM_TYPES)[number];

// Plain field parsers: the calendar has a million rows, so its reader calls these directly
// instead of running a zod schema per row; the listings schema below reuses them.

const DIGITS_RE = /^\d{1,20}$/;
/**
 * Listing, host and review ids: recent scrapes use ids of up to 19 digits, beyond
 * Number.MAX_SAFE_INTEGER, so they stay decimal strings. Undefined unless all digits.
 */
export function parseId(v: string | undefined): string | undefined {
  return v !== undefined && DIGITS_RE.test(v) ? v : undefined;
}

const DATE_RE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
/** True for an ISO calendar date `YYYY-MM-DD` (month 01-12, day 01-31). */
export function isIsoDate(v: string): boolean {
  return DATE_RE.test(v);
}

const PRICE_RE = /^[$£]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?$/;
/**
 * A price cell as GBP: `$1,040.00` (detailed listings: the `$` is a display artefact, UK
 * scrapes are priced in GBP), `40` (summary listings). Null when present but malformed;
 * undefined when blank, since a blank price is common (unlisted dates, inactive listings).
 */
export function parsePrice(v: string | undefined): number | undefined | null {
  if (v === undefined || v === '') return undefined;
  if (!PRICE_RE.test(v)) return null;
  return Number(v.replace(/[$£,]/g, ''));
}

/** `t`/`f` flags: true/false, undefined when blank, null when anything else. */
export function parseTf(v: string | undefined): boolean | undefined | null {
  if (v === 't') return true;
  if (v === 'f') return false;
  return v === undefined || v === '' ? undefined : null;
}

const PERCENT_RE = /^\d{1,3}(?:\.\d+)?%$/;
/** `95%` → 0.95; `N/A` or blank → undefined; anything else (or over 100%) → null. */
export function parsePercent(v: string | undefined): number | undefined | null {
  if (v === undefined || v === '' || v === 'N/A') return undefined;
  if (!PERCENT_RE.test(v)) return null;
  const n = Number(v.slice(0, -1));
  return n <= 100 ? n / 100 : null;
}

const UINT_RE = /^\d{1,10}$/;
/** Largest count kept: staging stores counts as 32-bit INTEGER (scrapes use it for "no maximum"). */
const INT32_MAX = 2_147_483_647;
/** A non-negative integer cell: undefined when blank, null when not an integer or above INT32_MAX. */
export function parseCount(v: string | undefined): number | undefined | null {
  if (v === undefined || v === '') return undefined;
  if (!UINT_RE.test(v)) return null;
  const n = Number(v);
  return n <= INT32_MAX ? n : null;
}

/** A zod field over a raw cell that runs one of the parsers above; null from the parser is an issue. */
function cell<T>(parse: (v: string | undefined) => T | undefined | null, message: string) {
  return z
    .string()
    .optional()
    .transform((v, ctx): T | undefined => {
      const r = parse(v === undefined ? undefined : v.trim());
      if (r === null) {
        ctx.addIssue({ code: 'custom', message, input: v });
        return z.NEVER;
      }
      return r;
    });
}

const id = () => z.string().trim().regex(DIGITS_RE, 'expected a decimal id of up to 20 digits');
const optDate = () => cell((v) => (v === undefined || v === '' ? undefined : isIsoDate(v) ? v : null), 'expected YYYY-MM-DD');
const count = () => cell(parseCount, 'expected a non-negative integer');
const tf = () => cell(parseTf, "expected 't' or 'f'");
const percent = () => cell(parsePercent, "expected a percentage like '95%' or 'N/A'");
const price = () => cell(parsePrice, "expected a price like '$1,040.00' or '40'");
const optNonNeg = () => optNum().pipe(z.number().min(0).optional());
const score = () => optNum().pipe(z.number().min(0).max(5).optional());

/**
 * One listing from the detailed (79-column) or summary (18-column) `listings.csv`. Input is
 * the raw cells by output name (undefined where the file lacks the column); output is typed,
 * with blanks as undefined. Coordinates are bounded to Great Britain and Northern Ireland.
 */
export const AirbnbListingRow = z.object({
  id: id(),
  name: optStr(),
  description: z.string().optional().transform((v) => (v === undefined || v.trim() === '' ? undefined : v)),
  host_id: id(),
  host_since: optDate(),
  host_is_superhost: tf(),
  host_response_rate: percent(),
  host_acceptance_rate: percent(),
  host_listings_count: count(),
  neighbourhood_cleansed: optStr(),
  latitude: num().pipe(z.number().min(49).max(61)),
  longitude: num().pipe(z.number().min(-9).max(2.5)),
  property_type: optStr(),
  room_type: z.enum(AIRBNB_ROOM_TYPES),
  accommodates: count(),
  bathrooms: optNonNeg(),
  bathrooms_text: optStr(),
  bedrooms: count(),
  beds: count(),
  amenities: z.array(z.string()).optional(),
  price_gbp: price(),
  minimum_nights: count(),
  maximum_nights: count(),
  availability_30: count(),
  availability_60: count(),
  availability_90: count(),
  availability_365: count(),
  number_of_reviews: count(),
  number_of_reviews_ltm: count(),
  number_of_reviews_l30d: count(),
  first_review: optDate(),
  last_review: optDate(),
  review_scores_rating: score(),
  review_scores_accuracy: score(),
  review_scores_cleanliness: score(),
  review_scores_checkin: score(),
  review_scores_communication: score(),
  review_scores_location: score(),
  review_scores_value: score(),
  license: optStr(),
  instant_bookable: tf(),
  calculated_host_listings_count: count(),
  reviews_per_month: optNonNeg(),
  estimated_occupancy_l365d: count(),
  estimated_revenue_l365d: optNonNeg(),
  last_scraped: optDate(),
});
export type AirbnbListingRow = z.output<typeof AirbnbListingRow>;

/** One calendar day of one listing. Prices are GBP; blank in every row of recent scrapes. */
export const AirbnbCalendarRow = z.object({
  listing_id: id(),
  date: z.string().regex(DATE_RE),
  available: z.boolean(),
  price_gbp: z.number().min(0).optional(),
  adjusted_price_gbp: z.number().min(0).optional(),
  minimum_nights: z.number().int().min(0).optional(),
  maximum_nights: z.number().int().min(0).optional(),
});
export type AirbnbCalendarRow = z.output<typeof AirbnbCalendarRow>;

/** One review. The summary file has listing_id and date only; the rest is undefined there. */
export const AirbnbReviewRow = z.object({
  listing_id: id(),
  date: z.string().regex(DATE_RE),
  id: id().optional(),
  reviewer_id: id().optional(),
  reviewer_name: z.string().optional(),
  comments: z.string().optional(),
});
export type AirbnbReviewRow = z.output<typeof AirbnbReviewRow>;
