/**
 * How Inside Airbnb's free text maps to the API's categories. The same patterns run in the
 * ETL's SQL (DuckDB's RE2, given lower-cased text) and in these pure functions, so the
 * patterns stay within the syntax both engines share: anchors, alternation, `?`, `\b`, groups.
 */

export interface AmenityRule {
  /** API key stem: the market analysis reports `<key>_pct`; str_listings has `has_<key>`. */
  key: string;
  /** Matched against each lower-cased amenity string. */
  pattern: string;
  description: string;
}

export const AMENITY_RULES: readonly AmenityRule[] = [
  { key: 'wifi', pattern: '^(fast |pocket )?wifi\\b|^wireless internet\\b', description: '"Wifi", "Fast wifi – 300 Mbps", "Pocket wifi"' },
  { key: 'kitchen', pattern: '^(shared |private )?kitchen(ette)?\\b', description: '"Kitchen", "Kitchenette" (not kitchen appliances)' },
  { key: 'washing_machine', pattern: '^(free |paid )?washer\\b', description: '"Washer", "Free washer – In unit", "Paid washer – In building" (not "Dishwasher")' },
  { key: 'dryer', pattern: '^(free |paid )?dryer\\b', description: 'tumble dryer: "Dryer", "Free dryer – In unit" (not "Hair dryer")' },
  { key: 'parking', pattern: '\\bparking\\b|\\bgarage on premises\\b|\\bcarport\\b', description: 'any parking, free or paid, on or off premises, street or driveway' },
  { key: 'free_parking', pattern: '^free .*parking|^free .*garage on premises', description: 'free parking on premises or in the street' },
  { key: 'air_conditioning', pattern: '\\bair conditioning\\b', description: 'central, portable or split air conditioning' },
  { key: 'heating', pattern: '\\bheating\\b', description: '"Heating", "Central heating", "Radiant heating"' },
  { key: 'tv', pattern: '^([0-9]+ inch )?(hd)?tv\\b', description: '"TV", "HDTV with Netflix", "55 inch HDTV"' },
  { key: 'workspace', pattern: '\\bworkspace\\b', description: '"Dedicated workspace"' },
  { key: 'dishwasher', pattern: '^dishwasher\\b', description: '"Dishwasher"' },
  { key: 'self_check_in', pattern: '^self check-in\\b', description: '"Self check-in"' },
  { key: 'pets_allowed', pattern: '^pets allowed\\b', description: '"Pets allowed"' },
  { key: 'outdoor_space', pattern: '\\bpatio or balcony\\b|^(private |shared )?backyard\\b|^(private |shared )?garden$', description: 'patio, balcony, backyard or garden (not a "Garden view")' },
  { key: 'hot_tub', pattern: '\\bhot tub\\b', description: 'private or shared hot tub' },
  { key: 'pool', pattern: '^(private |shared )?(indoor |outdoor )?pool($| -|,)', description: 'swimming pool, private or shared (not "Pool table")' },
  { key: 'ev_charger', pattern: '\\bev charger\\b', description: 'electric-vehicle charger' },
  { key: 'fireplace', pattern: '^indoor fireplace\\b', description: 'indoor fireplace of any fuel' },
  { key: 'gym', pattern: '\\bgym\\b', description: 'gym on site or in the building' },
  { key: 'long_term_stays', pattern: '^long term stays allowed\\b', description: '"Long term stays allowed"' },
  { key: 'smoke_alarm', pattern: '^smoke alarm\\b', description: '"Smoke alarm"' },
];

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

/** Price tiers, cheapest first: quintiles of the listed nightly price within a tier group. */
export const PRICE_TIERS = ['Budget', 'Economy', 'Midscale', 'Upscale', 'Luxury'] as const;
export type PriceTier = (typeof PRICE_TIERS)[number];

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
