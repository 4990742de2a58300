/**
 * How Inside Airbnb's free text maps to the API's categories. The same patterns run in the
 * ETL's SQL (DuckDB's RE2, given lower-cased text) and in these pure functions, so the
 * patterns stay within the syntax both engines share: anchors, alternation, `?`, `\b`, groups.
 */
import { AMENITY_RULES } from '../../../../schemas/tables/str-amenities.ts';
import { PRICE_TIERS, type PriceTier } from '../../../../schemas/tables/str.ts';

/** Every amenity key this build matches, lower-cased amenity strings in, sorted keys out. */
export function matchAmenities(amenities: readonly string[]): string[] {
  const rules = AMENITY_RULES.map((r) => ({ key: r.key, re: new RegExp(r.pattern) }));
  const keys = new Set<string>();
  for (const a of amenities) {
    const text = a.toLowerCase();
    for (const r of rules) if (r.re.test(text)) keys.add(r.key);
  }
  return [...keys].sort();
}

/**
 * Inside Airbnb's `property_type` ("Entire rental unit", "Private room in townhouse") to the
 * API's `house` or `apartment`: flat-like words first (a room in a rental unit is in a flat),
 * then house-like words; hotels, boats, campers, yurts and bare "Private room" stay null.
 */
export const PROPERTY_CLASS_PATTERNS = {
  neither: '^room in (hotel|boutique hotel|hostel)\\b',
  apartment: '\\b(rental unit|condo|condominium|apartment|aparthotel|loft|flat|serviced apartment)\\b',
  house: '\\b(home|house|townhouse|cottage|bungalow|villa|guesthouse|guest suite|bed and breakfast|cabin|chalet|barn|farm stay|casa particular|castle|hut)\\b',
} as const;

export type PropertyClass = 'house' | 'apartment';

export function propertyClass(propertyType: string | undefined): PropertyClass | undefined {
  if (propertyType === undefined) return undefined;
  const t = propertyType.toLowerCase();
  if (new RegExp(PROPERTY_CLASS_PATTERNS.neither).test(t)) return undefined;
  if (new RegExp(PROPERTY_CLASS_PATTERNS.apartment).test(t)) return 'apartment';
  if (new RegExp(PROPERTY_CLASS_PATTERNS.house).test(t)) return 'house';
  return undefined;
}

/** Inside Airbnb `room_type` to the API's `listing_type`; hotel rooms keep a value of their own. */
export const LISTING_TYPES = {
  'Entire home/apt': 'entire_home',
  'Private room': 'private_room',
  'Shared room': 'shared_room',
  'Hotel room': 'hotel_room',
} as const;


/**
 * The size band a listing's price is ranked within: whole homes by bedrooms (studios count
 * as one bedroom), all private, shared and hotel rooms together.
 */
export function tierBand(listingType: string, bedrooms: number | undefined): string {
  if (listingType !== 'entire_home') return 'room';
  const b = Math.max(1, bedrooms ?? 1);
  return b >= 4 ? 'entire_4plus' : `entire_${b}`;
}

/** The tier of a price given the group's four quintile bounds (a bound belongs to the tier above). */
export function tierOf(price: number, bounds: readonly [number, number, number, number]): PriceTier {
  const i = bounds.findIndex((b) => price < b);
  return PRICE_TIERS[i === -1 ? 4 : i]!;
}
