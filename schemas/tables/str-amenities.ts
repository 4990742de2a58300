/**
 * The amenities `str_listings` publishes as `has_<key>` columns (and the market analysis as
 * `<key>_pct`): part of the table's contract, matched by the ETL (etl/stages/40-marts/70-str/).
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
