/**
 * GET /rents/long-term (DESIGN.md §6 #12, named in the spec's pricing): area long-term
 * rents by bedroom count from the lets of the last 24 months.
 */
import { z } from 'zod';
import { MIN_LETS, MIN_YIELD_SALES } from '../tables/market.ts';
import { Lat, Lng, Outcode, PostcodeOrSector, qInt, qNum } from './common.ts';
import { locationQuery } from './location.ts';
import { houseOrFlatParam } from './property-type.ts';

export const RENTAL_KIND = ['house', 'flat'] as const;

export const LongTermRentsQuerySchema = z
  .strictObject({
    postcode: PostcodeOrSector.optional().meta({ description: 'Full postcode (answered for its sector) or a sector such as `BS1 4`.' }),
    outcode: Outcode.optional(),
    lat: Lat.optional(),
    lng: Lng.optional(),
    radius_m: qNum((n) => n.positive().max(5_000)).optional().meta({ description: 'Metres around lat,lng, up to 5 km; required with lat and lng.' }),
    bedrooms: qInt((n) => n.min(0).max(20)).optional().meta({ description: 'Only this bedroom count; 0 is a studio, 4 or more is the "4+" group.' }),
    property_type: houseOrFlatParam().optional().meta({ description: 'Only lets of houses or of flats.' }),
  })
  .superRefine((v, ctx) => {
    const point = v.lat !== undefined || v.lng !== undefined || v.radius_m !== undefined;
    if (point && (v.lat === undefined || v.lng === undefined || v.radius_m === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['location'], message: 'lat, lng and radius_m must be given together' });
    }
    const ways = [v.postcode !== undefined, v.outcode !== undefined, point].filter(Boolean).length;
    if (ways !== 1) ctx.addIssue({ code: 'custom', path: ['location'], message: 'give the location in exactly one way: postcode, outcode or lat+lng+radius_m' });
  });

export const RentBedroomStatsSchema = z.object({
  bedrooms: z.number().int().meta({ description: '0 studio, 1, 2, 3, or 4 = four or more' }),
  median_pcm: z.number(),
  mean_pcm: z.number(),
  p25_pcm: z.number(),
  p75_pcm: z.number(),
  sample_size: z.number().int().meta({ description: 'The area\'s own lets in the group, whatever the source.' }),
  source: z.enum(['evidence', 'shrunk', 'thin']).meta({
    description: `evidence: at least ${MIN_LETS} lets, their own figures; shrunk: fewer, a sector's or outcode's figures shrunk toward prior_level's ` +
      '(the rents_area mart: never a rent that falls as bedrooms rise on thin evidence); thin: fewer lets and no wider figure to shrink toward ' +
      '(a radius, or a property_type filter): the own figures, to be read as thin',
  }),
  prior_level: z.string().nullable().meta({ description: 'The wider area a shrunk group leans on (outcode, district or ons_district); null otherwise.' }),
});

export const LongTermRentsSchema = z
  .object({
    location_label: z.string().meta({ description: 'Area label: the sector, the outcode, or the radius around the point.' }),
    area: z.object({
      level: z.enum(['sector', 'outcode', 'radius']),
      code: z.string().nullable(),
      radius_m: z.number().nullable(),
    }),
    property_type: z.enum(RENTAL_KIND).nullable(),
    period: z.object({ from: z.string(), to: z.string() }).meta({ description: 'Dates of the first and last let counted.' }),
    by_bedrooms: z.array(RentBedroomStatsSchema),
    currency: z.literal('GBP'),
  })
  .meta({ id: 'LongTermRents' });

/** Where GET /yields and GET /rents/hmo answer: a sector (a full postcode or UPRN answers for its sector), an outcode or a local authority. */
export const AREA_RENTS_LOCATION = locationQuery({ forms: ['uprn', 'sector', 'postcode', 'outcode', 'local_authority'] });

const AreaLevel = z.enum(['sector', 'outcode', 'district']);
const Period = z.object({ from: z.string(), to: z.string() });

export const YieldsQuerySchema = z
  .strictObject({
    ...AREA_RENTS_LOCATION.shape,
    bedrooms: qInt((n) => n.min(0).max(20)).optional().meta({ description: 'Only this bedroom count; 0 is a studio, 4 or more is the "4+" group.' }),
  })
  .superRefine(AREA_RENTS_LOCATION.refine);

export const YieldRowSchema = z.object({
  bedrooms: z.number().int().meta({ description: '0 studio, 1, 2, 3, or 4 = four or more' }),
  gross_yield_pct: z.number().meta({ description: '100 × median_rent_pcm × 12 ÷ median_price' }),
  median_rent_pcm: z.number(),
  rent_sample_size: z.number().int().meta({ description: 'Lets behind the rent (the ONS count where rent_source is ons_district).' }),
  rent_source: z.enum(['evidence', 'shrunk', 'ons_district', 'evidence_thin'])
    .meta({ description: `evidence: at least ${MIN_LETS} lets; shrunk: fewer, shrunk toward rent_prior_level's figure; ons_district: no lets, the local authority's ONS figure; evidence_thin: fewer lets and nothing wider` }),
  rent_prior_level: z.string().nullable().meta({ description: 'The wider area a thin rent was shrunk toward; null when not thin.' }),
  median_price: z.number().meta({ description: 'Median price, index-adjusted to the latest month, of standard sales with as many bedrooms.' }),
  sales_count: z.number().int().meta({ description: `Sales behind median_price (at least ${MIN_YIELD_SALES}).` }),
  area: z.object({ level: AreaLevel, code: z.string(), widened: z.boolean() })
    .meta({ description: 'The area the figures are from: the asked one, or the nearest wider one with enough evidence (widened).' }),
  thin: z.boolean().meta({ description: 'True when the figures rest on thin evidence: a shrunk or thin rent, or no area with enough evidence.' }),
  note: z.string().nullable().meta({ description: 'Why the figures are a wider area\'s or thin; null otherwise.' }),
});

export const YieldsSchema = z
  .object({
    area: z.object({ level: AreaLevel, code: z.string() }),
    by_bedrooms: z.array(YieldRowSchema),
    rents_period: Period.meta({ description: 'Lets agreed in these dates (the 24 months to the build date).' }),
    sales_period: Period.meta({ description: 'Sales in these months (YYYY-MM: the 24 months to the latest month of Price Paid).' }),
    currency: z.literal('GBP'),
  })
  .meta({ id: 'Yields' });

export const HmoRentsQuerySchema = z.strictObject({ ...AREA_RENTS_LOCATION.shape }).superRefine(AREA_RENTS_LOCATION.refine);

export const HmoRentsSchema = z
  .object({
    area: z.object({ level: AreaLevel, code: z.string() }),
    room: z.object({
      median_pcm: z.number(),
      mean_pcm: z.number(),
      p25_pcm: z.number(),
      p75_pcm: z.number(),
      sample_size: z.number().int().meta({ description: 'Room lets behind the figures, or the ONS count of room rents where source is ons_district.' }),
      source: z.enum(['evidence', 'ons_district', 'evidence_thin'])
        .meta({ description: `evidence: at least ${MIN_LETS} room lets; ons_district: the local authority's ONS "Room" figures (fewer lets); evidence_thin: fewer lets and no ONS figure` }),
      evidence_count: z.number().int().meta({ description: 'Room lets of the last 24 months in the area the figures are from, whatever the source.' }),
    }).meta({ description: 'Monthly rent of one room in a shared house.' }),
    from_area: z.object({ level: AreaLevel, code: z.string(), widened: z.boolean() })
      .meta({ description: 'The area the figures are from: the asked one, or the nearest wider one with enough room lets (widened).' }),
    thin: z.boolean().meta({ description: 'True when no area up to the local authority has enough room lets of its own.' }),
    note: z.string().nullable(),
    by_room_type: z.null().meta({ description: 'Single, double and en-suite rents: null, as the rental evidence records no room type.' }),
    bills_included_share: z.null().meta({ description: 'Null: the rental evidence records no bills flag.' }),
    period: Period.meta({ description: 'Lets agreed in these dates (the 24 months to the build date); ONS figures are their release\'s.' }),
    currency: z.literal('GBP'),
  })
  .meta({ id: 'HmoRents' });
