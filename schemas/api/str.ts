import { z } from 'zod';
import { FINISH_QUALITY, PROPERTY_KIND, Outcode, Postcode, PostcodeOrSector, Uprn, qInt, qNum } from './common.ts';
import { UprnValue } from './location.ts';
import { houseOrApartmentParam } from './property-type.ts';
import { PRICE_TIERS } from '../tables/str.ts';

const Month3 = z.enum(['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']);

/** POST /valuations/str-estimate: one location (uprn, postcode or lat+lng) and the bedrooms. */
export const StrEstimateBodySchema = z
  .strictObject({
    uprn: UprnValue.optional(),
    postcode: Postcode.optional(),
    lat: z.number().min(49).max(61).optional(),
    lng: z.number().min(-9).max(2.5).optional(),
    bedrooms: z.number().int().min(0).max(20).optional().meta({ description: 'Required, except with uprn: then it defaults to the property record\'s bedrooms (400 when the record has none). 0 is a studio.' }),
    bathrooms: z.number().int().min(0).max(20).optional().meta({ description: 'Default: the greater of 1 and bedrooms - 1.' }),
    property_type: houseOrApartmentParam().optional().meta({ description: 'Default: from the property record with uprn (Flat: apartment, else house), else the type most nearby listings with as many bedrooms have.' }),
    finish_quality: z.enum(FINISH_QUALITY).default('average').meta({ description: 'Multiplies the comparables\' ADR: below_average 0.90, average 1, above_average 1.05, very_high 1.10.' }),
    include_comparables: z.boolean().default(false).meta({ description: 'When true, comps.comparables lists the listings used.' }),
  })
  .superRefine((v, ctx) => {
    if (v.bedrooms === undefined && v.uprn === undefined) ctx.addIssue({ code: 'custom', path: ['bedrooms'], message: 'bedrooms is required (it may be left out only with uprn)' });
    const point = v.lat !== undefined || v.lng !== undefined;
    if (point && (v.lat === undefined || v.lng === undefined)) ctx.addIssue({ code: 'custom', path: [v.lat === undefined ? 'lat' : 'lng'], message: 'lat and lng must be given together' });
    const ways = [v.uprn !== undefined, v.postcode !== undefined, point].filter(Boolean).length;
    if (ways !== 1) ctx.addIssue({ code: 'custom', path: ['location'], message: 'give the location in exactly one way: uprn, postcode or lat+lng' });
  });

const MonthFigures = {
  adr: z.number().meta({ description: 'average daily rate: revenue ÷ booked nights, GBP' }),
  occupancy_pct: z.number().meta({ description: 'booked share of the available (unblocked) nights, 0-100' }),
  revenue_pcm: z.number().meta({ description: 'revenue of the month (a year\'s monthly mean in projected_monthly), GBP' }),
  revpar: z.number().meta({ description: 'revenue ÷ available nights, GBP' }),
};

/** One comparable listing of the STR estimate (docs/str.md, "The estimate"). */
export const StrComparableSchema = z
  .object({
    listing_id: z.string().meta({ description: 'Inside Airbnb listing id (text: ids pass 2^53)' }),
    distance_m: z.number().int().meta({ description: 'metres from the property' }),
    bedrooms: z.number().int(),
    bathrooms: z.number().nullable().meta({ description: 'may be a half, e.g. 1.5; null when not published' }),
    property_type: z.enum(PROPERTY_KIND).nullable(),
    adr: z.number().meta({ description: 'estimated average daily rate over its last 12 months, GBP' }),
    occupancy_pct: z.number().meta({ description: 'estimated booked share of its available nights over its last 12 months, 0-100' }),
    revenue_annual: z.number().meta({ description: 'estimated revenue over its last 12 months, GBP' }),
    similarity_weight: z.number().min(0).max(1).meta({ description: 'resemblance to the property on bedrooms, bathrooms and type, 0-1 (1: identical)' }),
  })
  .meta({ id: 'StrComparable' });

export const StrEstimateSchema = z
  .object({
    location_label: z.string().meta({ description: 'the address (uprn), the postcode, or the point and the nearest listing\'s sector' }),
    currency: z.literal('GBP'),
    projected_monthly: z.object(MonthFigures).meta({ description: 'the year\'s ADR, occupancy and revpar, and revenue ÷ 12' }),
    projected_annual: z.object({
      revenue: z.number().meta({ description: 'GBP, the sum of the 12 months' }),
      occupancy_pct: z.number(),
      high_season_months: z.array(Month3).meta({ description: 'months with revenue at least 10% above the mean month' }),
      low_season_months: z.array(Month3).meta({ description: 'months with revenue at least 10% below the mean month' }),
    }),
    monthly_breakdown: z.array(z.object({ month: Month3, ...MonthFigures })).length(12).meta({ description: 'January to December of a typical year at today\'s prices' }),
    comps: z.object({
      listings_sampled: z.number().int().meta({ description: 'comparables used (at most 100)' }),
      radius_m: z.number().meta({ description: 'search radius, metres (2000)' }),
      similarity_weight_avg: z.number().meta({ description: 'mean resemblance of the comparables on bedrooms, bathrooms and type, 0-1' }),
      comparables: z.array(StrComparableSchema).optional().meta({ description: 'Only when include_comparables is true: the listings used, highest weight first.' }),
    }),
    confidence: z.enum(['High', 'Medium', 'Low']),
  })
  .meta({ id: 'StrEstimate' });

export const STR_SECTIONS = ['summary', 'historical', 'supply', 'ratings', 'amenities', 'by_bedrooms', 'by_listing_type', 'by_price_tier', 'demand', 'grade'] as const;
export const LISTING_TYPES = ['entire_home', 'private_room', 'shared_room'] as const;

/** Space-separated `lng,lat` pairs, at least three. */
const Polygon = z
  .string()
  .superRefine((v, ctx) => {
    const pairs = v.trim().split(/\s+/);
    if (pairs.length < 3) ctx.addIssue({ code: 'custom', message: 'polygon needs at least 3 lng,lat pairs' });
    for (const p of pairs) {
      const [lng, lat, extra] = p.split(',');
      if (extra !== undefined || !Number.isFinite(Number(lng)) || !Number.isFinite(Number(lat)) || lng === '' || lat === '') {
        ctx.addIssue({ code: 'custom', message: `not a lng,lat pair: ${p.slice(0, 40)}` });
        return;
      }
    }
  })
  .meta({ description: 'Space-separated lng,lat pairs (WGS84 decimal degrees, e.g. `-2.60,51.45 -2.58,51.45 -2.59,51.46`); at least 3. The ring closes itself (the first pair need not be repeated); a listing is inside by the even-odd rule.' });

/** The location forms and listing filters of GET /str/market and GET /str/listings. */
const strArea = {
  postcode: PostcodeOrSector.optional(),
  outcode: Outcode.optional(),
  lat: qNum((n) => n.min(49).max(61)).optional(),
  lng: qNum((n) => n.min(-9).max(2.5)).optional(),
  radius_m: qNum((n) => n.positive().max(5_000)).optional().meta({ description: 'Metres, up to 5 km: around lat,lng (required there), or around a full postcode\'s point (default 1,000 there), as comparables take it.' }),
  polygon: Polygon.optional(),
  listing_type: z.enum(LISTING_TYPES).optional(),
  bedrooms: qInt((n) => n.min(0).max(20)).optional(),
  min_bedrooms: qInt((n) => n.min(0).max(20)).optional(),
  max_bedrooms: qInt((n) => n.min(0).max(20)).optional(),
  property_type: houseOrApartmentParam().optional(),
  min_rating: qNum((n) => n.min(0).max(5)).optional(),
  price_tier: z.array(z.enum(PRICE_TIERS)).optional().meta({ description: 'Repeatable.' }),
};
/** A full postcode, not a sector (PostcodeOrSector takes both). */
const isFullPostcode = (s: string): boolean => /[A-Za-z]{2}$/.test(s.trim());
type StrAreaInput = { [K in keyof typeof strArea]?: z.output<(typeof strArea)[K]> };

function refineStrArea(v: StrAreaInput, ctx: z.RefinementCtx): void {
  // One location grammar with comparables: a radius goes with a point, given as lat+lng or as
  // a full postcode (whose point it is around); a sector, outcode or polygon is an area already.
  const point = v.lat !== undefined || v.lng !== undefined;
  if (point && (v.lat === undefined || v.lng === undefined || v.radius_m === undefined)) {
    ctx.addIssue({ code: 'custom', path: ['location'], message: 'lat, lng and radius_m must be given together' });
  }
  if (v.radius_m !== undefined && !point && v.postcode !== undefined && !isFullPostcode(v.postcode)) {
    ctx.addIssue({ code: 'custom', path: ['radius_m'], message: 'radius_m applies to a full postcode or lat+lng, not to a postcode sector' });
  }
  if (v.radius_m !== undefined && !point && v.postcode === undefined && (v.outcode !== undefined || v.polygon !== undefined)) {
    ctx.addIssue({ code: 'custom', path: ['radius_m'], message: `radius_m applies to a full postcode or lat+lng, not to ${v.outcode !== undefined ? 'an outcode' : 'a polygon'}` });
  }
  const ways = [v.postcode !== undefined, v.outcode !== undefined, point, v.polygon !== undefined].filter(Boolean).length;
  if (ways !== 1) ctx.addIssue({ code: 'custom', path: ['location'], message: 'give the location in exactly one way: postcode, outcode, lat+lng+radius_m or polygon' });
  if (v.min_bedrooms !== undefined && v.max_bedrooms !== undefined && v.min_bedrooms > v.max_bedrooms) {
    ctx.addIssue({ code: 'custom', path: ['min_bedrooms'], message: 'min_bedrooms must not exceed max_bedrooms' });
  }
}

export const StrMarketQuerySchema = z
  .strictObject({
    ...strArea,
    include: z
      .string()
      .superRefine((v, ctx) => {
        const bad = v.split(',').filter((s) => !(STR_SECTIONS as readonly string[]).includes(s.trim()));
        if (bad.length > 0) ctx.addIssue({ code: 'custom', message: `unknown section(s): ${bad.join(', ')}` });
      })
      .optional()
      .meta({ description: `Comma-separated; any of ${STR_SECTIONS.join(', ')}. Default: all.` }),
  })
  .superRefine(refineStrArea);

export const STR_LISTING_SORTS = ['revenue', 'adr', 'occupancy', 'rating', 'distance'] as const;

/** GET /str/listings: the listings behind GET /str/market, paged and sorted. */
export const StrListingsQuerySchema = z
  .strictObject({
    ...strArea,
    sort: z.enum(STR_LISTING_SORTS).default('revenue').meta({ description: 'Highest first (revenue, adr, occupancy, rating; a listing without the figure last), or nearest first (distance: only with a full postcode or lat+lng). Ties by listing_id.' }),
    page: qInt((n) => n.min(1).max(10_000)).default(1),
    per_page: qInt((n) => n.min(1).max(50)).default(25),
  })
  .superRefine((v, ctx) => {
    refineStrArea(v, ctx);
    const fullPostcode = v.postcode !== undefined && /[A-Za-z]{2}$/.test(v.postcode.replace(/\s+/g, ''));
    if (v.sort === 'distance' && v.lat === undefined && !fullPostcode) {
      ctx.addIssue({ code: 'custom', path: ['sort'], message: 'sort=distance needs a point: a full postcode or lat+lng+radius_m' });
    }
  });

const StrListing = z.object({
  listing_id: z.string().meta({ description: 'Inside Airbnb listing id (real ids have up to 19 digits: a string)' }),
  listing_type: z.string().meta({ description: 'entire_home, private_room, shared_room or hotel_room' }),
  property_type: z.enum(['house', 'apartment']).nullable(),
  bedrooms: z.number().int().nullable(),
  bathrooms: z.number().nullable(),
  accommodates: z.number().int().nullable(),
  lat: z.number().meta({ description: 'Rounded to 3 decimals (about 100 m); the source already jitters it' }),
  lng: z.number().meta({ description: 'Rounded to 3 decimals' }),
  adr: z.number().nullable().meta({ description: 'Average daily rate over the last 12 months, GBP' }),
  occupancy_pct: z.number().nullable().meta({ description: 'Booked share of available nights over the last 12 months, 0-100' }),
  revenue_annual: z.number().nullable().meta({ description: 'Revenue of the last 12 months, GBP' }),
  rating: z.number().nullable(),
  reviews_count: z.number().int().nullable(),
  host_listings_count: z.number().int().nullable(),
  last_scraped: z.string().meta({ description: 'Date of the scrape the listing comes from' }),
  distance_m: z.number().nullable().meta({ description: 'Metres from the postcode or point; null for an area or polygon' }),
});

export const StrListingsSchema = z
  .object({
    location_label: z.string().meta({ description: 'the place searched, as written for a reader: the postcode, sector, outcode, or the radius around the point' }),
    sort: z.enum(STR_LISTING_SORTS),
    page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int().meta({ description: 'Listings matching the location and filters' }),
    listings: z.array(StrListing),
    currency: z.literal('GBP'),
  })
  .meta({ id: 'StrListings' });

const Sections = {
  summary: z.object({ adr: z.number().nullable(), occupancy_pct: z.number().nullable(), revpar: z.number().nullable(), revenue_pcm: z.number().nullable(), revenue_annual: z.number().nullable(), active_listings: z.number().int() }).meta({ description: 'A ratio with nothing under it (no booked or available night, no live listing) is null, not 0.' }),
  historical: z.array(z.object({ month: z.string().regex(/^\d{4}-\d{2}$/), adr: z.number().nullable(), occupancy_pct: z.number().nullable(), revenue_pcm: z.number().nullable(), revpar: z.number().nullable(), yoy_revenue_change: z.number().nullable() })),
  supply: z.object({ active_listings: z.number().int(), yoy_growth_pct: z.number().nullable(), new_listings_30d: z.number().int(), blocked_listings: z.number().int() }),
  ratings: z.object({ overall_avg: z.number().nullable(), count_with_rating: z.number().int(), cleanliness: z.number().nullable(), accuracy: z.number().nullable(), communication: z.number().nullable(), location: z.number().nullable(), check_in: z.number().nullable(), value: z.number().nullable() }),
  amenities: z.record(z.string().regex(/_pct$/), z.number()),
  by_bedrooms: z.array(z.object({ bedrooms: z.number().int(), listings: z.number().int(), adr: z.number().nullable(), occupancy_pct: z.number().nullable(), revenue_pcm: z.number().nullable() })),
  by_listing_type: z.array(z.object({ listing_type: z.string(), listings: z.number().int(), adr: z.number().nullable(), occupancy_pct: z.number().nullable() })),
  by_price_tier: z.array(z.object({ tier: z.enum(PRICE_TIERS), listings: z.number().int(), adr: z.number().nullable(), occupancy_pct: z.number().nullable(), revenue_pcm: z.number().nullable() })).meta({ description: 'Tiers are quintiles of the listed nightly price among comparable listings (same local authority; whole homes by bedrooms 1, 2, 3, 4+, or rooms): Budget below the 20th percentile, Economy 20th-40th, Midscale 40th-60th, Upscale 60th-80th, Luxury from the 80th. Bounds in the str_price_tiers table.' }),
  demand: z.object({ booked_nights_30d: z.number().int(), available_nights_30d: z.number().int(), lead_time_avg_days: z.number().nullable(), length_of_stay_avg: z.number().nullable() }),
  grade: z.object({ letter: z.enum(['A', 'B', 'C', 'D', 'E', 'F']).nullable(), score_0_100: z.number().min(0).max(100).nullable(), strongest: z.array(z.string()), weakest: z.array(z.string()), listings: z.number().int(), note: z.string().optional() }).meta({ description: 'listings: the active listings graded. A market with fewer than 3 active listings is too thin to grade: letter and score_0_100 are null and note says why. Otherwise the market against every postcode sector of the build with at least 3 active listings (unfiltered): score_0_100 is the percentile of its mean dimension percentile; A from 85, B 70, C 50, D 30, E 15, F below. Dimensions: revenue, occupancy, revenue_growth, stability, supply_headroom, guest_rating; strongest and weakest name the two of highest and lowest percentile.' }),
};

export const StrMarketSchema = z
  .object({
    location: z.string().meta({ description: 'the place searched, as a label (the spec\'s string): the postcode, sector, outcode, or the radius around the point' }),
    country: z.enum(['England', 'Wales', 'Scotland']),
    currency: z.literal('GBP'),
    listings: z.number().int().meta({ description: 'the listings selected (location and filters): the count every figure rests on' }),
    ...Object.fromEntries(Object.entries(Sections).map(([k, s]) => [k, s.optional()])),
  })
  .meta({ id: 'StrMarket', description: 'location, country and currency always; the other sections as named in include.' });
