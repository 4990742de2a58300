import { AirbnbListingRow } from '../../../schemas/sources/airbnb.ts';
import { headerIndex, readCsvRecords } from '../csv.ts';
import type { RejectLog } from '../rejects.ts';
import { validateRow } from '../validate.ts';

/** Output field → source column, for the two published variants. Absent ones stay undefined. */
const DETAILED_COLUMNS: Record<string, string> = {
  id: 'id',
  name: 'name',
  description: 'description',
  host_id: 'host_id',
  host_since: 'host_since',
  host_is_superhost: 'host_is_superhost',
  host_response_rate: 'host_response_rate',
  host_acceptance_rate: 'host_acceptance_rate',
  host_listings_count: 'host_listings_count',
  neighbourhood_cleansed: 'neighbourhood_cleansed',
  latitude: 'latitude',
  longitude: 'longitude',
  property_type: 'property_type',
  room_type: 'room_type',
  accommodates: 'accommodates',
  bathrooms: 'bathrooms',
  bathrooms_text: 'bathrooms_text',
  bedrooms: 'bedrooms',
  beds: 'beds',
  price_gbp: 'price',
  minimum_nights: 'minimum_nights',
  maximum_nights: 'maximum_nights',
  availability_30: 'availability_30',
  availability_60: 'availability_60',
  availability_90: 'availability_90',
  availability_365: 'availability_365',
  number_of_reviews: 'number_of_reviews',
  number_of_reviews_ltm: 'number_of_reviews_ltm',
  number_of_reviews_l30d: 'number_of_reviews_l30d',
  first_review: 'first_review',
  last_review: 'last_review',
  review_scores_rating: 'review_scores_rating',
  review_scores_accuracy: 'review_scores_accuracy',
  review_scores_cleanliness: 'review_scores_cleanliness',
  review_scores_checkin: 'review_scores_checkin',
  review_scores_communication: 'review_scores_communication',
  review_scores_location: 'review_scores_location',
  review_scores_value: 'review_scores_value',
  license: 'license',
  instant_bookable: 'instant_bookable',
  calculated_host_listings_count: 'calculated_host_listings_count',
  reviews_per_month: 'reviews_per_month',
  estimated_occupancy_l365d: 'estimated_occupancy_l365d',
  estimated_revenue_l365d: 'estimated_revenue_l365d',
  last_scraped: 'last_scraped',
};

/** The summary file names the cleansed ward `neighbourhood`; its price is an integer. */
const SUMMARY_COLUMNS: Record<string, string> = {
  id: 'id',
  name: 'name',
  host_id: 'host_id',
  neighbourhood_cleansed: 'neighbourhood',
  latitude: 'latitude',
  longitude: 'longitude',
  room_type: 'room_type',
  price_gbp: 'price',
  minimum_nights: 'minimum_nights',
  number_of_reviews: 'number_of_reviews',
  last_review: 'last_review',
  reviews_per_month: 'reviews_per_month',
  calculated_host_listings_count: 'calculated_host_listings_count',
  availability_365: 'availability_365',
  number_of_reviews_ltm: 'number_of_reviews_ltm',
  license: 'license',
};

/** Columns without which a file is not usable, per variant. Older scrapes lack some others. */
const REQUIRED = ['id', 'host_id', 'latitude', 'longitude', 'room_type', 'price'];

type Variant = 'detailed' | 'summary';

function detectVariant(col: Map<string, number>, path: string): Variant {
  const variant: Variant = col.has('neighbourhood_cleansed') ? 'detailed' : 'summary';
  const need = [...REQUIRED, variant === 'detailed' ? 'amenities' : 'neighbourhood'];
  for (const c of need) {
    if (!col.has(c)) throw new Error(`${path}: not an Inside Airbnb listings file (no ${c} column)`);
  }
  return variant;
}

/**
 * `amenities` is a JSON list of strings inside one CSV cell. A blank cell is an empty list;
 * a malformed one becomes an empty list and is counted as `warn:amenities_malformed`
 * (the listing is still worth keeping for price and occupancy).
 */
function parseAmenities(cell: string | undefined, rejects: RejectLog, line: number): string[] {
  if (cell === undefined || cell.trim() === '') return [];
  try {
    const v: unknown = JSON.parse(cell);
    if (Array.isArray(v) && v.every((a) => typeof a === 'string')) return v;
  } catch {
    // fall through to the warning
  }
  rejects.add('warn:amenities_malformed', line, cell);
  return [];
}

/**
 * Streams Inside Airbnb listings: the detailed `listings.csv.gz` (79 columns) or the summary
 * `listings.csv` (18 columns), told apart by header. Ids stay decimal strings (up to 19 digits).
 * A record whose field count differs from the header's is rejected as `column_count`: its
 * cells would be shifted into the wrong columns.
 */
export async function* readAirbnbListings(path: string, rejects: RejectLog): AsyncGenerator<AirbnbListingRow> {
  let header: { variant: Variant; width: number; cells: [string, number][]; amenities?: number } | undefined;
  for await (const { fields, line } of readCsvRecords(path, rejects)) {
    if (!header) {
      const col = headerIndex(fields).index;
      const variant = detectVariant(col, path);
      const map = variant === 'detailed' ? DETAILED_COLUMNS : SUMMARY_COLUMNS;
      const cells = Object.entries(map)
        .filter(([, src]) => col.has(src))
        .map(([out, src]): [string, number] => [out, col.get(src)!]);
      header = { variant, width: fields.length, cells, amenities: col.get('amenities') };
      continue;
    }
    if (fields.length !== header.width) {
      rejects.add('column_count', line, `${fields.length} fields, header has ${header.width}`);
      continue;
    }
    const candidate: Record<string, unknown> = {};
    for (const [out, i] of header.cells) candidate[out] = fields[i];
    const row = validateRow(AirbnbListingRow, candidate, rejects, line);
    if (!row) continue;
    // After validation, so a rejected row is not also counted as an amenities warning.
    if (header.amenities !== undefined) row.amenities = parseAmenities(fields[header.amenities], rejects, line);
    yield row;
  }
}
