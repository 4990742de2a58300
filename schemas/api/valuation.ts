import { z } from 'zod';
import { FINISH_QUALITY, Postcode, qBool, qInt } from './common.ts';
import { UprnValue } from './location.ts';
import { houseOrFlatParam } from './property-type.ts';

export const SaleValuationSchema = z
  .object({
    uprn: z.string(),
    postcode: z.string(),
    value: z.number(),
    lower_bound: z.number(),
    upper_bound: z.number(),
    confidence: z.enum(['High', 'Medium', 'Low']),
    method: z.enum(['last_sold_growth', 'sqft_estimate', 'comparables']),
    currency: z.literal('GBP'),
  })
  .meta({ id: 'SaleValuation' });

export const HmoQuerySchema = z.strictObject({
  finish_quality: z.enum(FINISH_QUALITY).default('average'),
  living_room: qBool(true).meta({ description: 'Whether one room is a communal living room.' }),
  parking: qBool(true),
  outside_space: qBool(true),
});

export const HmoValuationSchema = z
  .object({
    uprn: z.string(),
    hmo_sale_value: z.object({ point: z.number(), low: z.number(), high: z.number(), confidence: z.enum(['high', 'medium', 'low']) }),
    gross_rent_pcm: z.object({ total: z.number(), per_room_avg: z.number(), rooms: z.number().int() }),
    gross_yield_pct: z.number(),
    article_4: z.boolean().nullable().meta({ description: 'in an Article 4 direction area in force; null outside England, which the planning layers (planning.data.gov.uk) do not cover' }),
    as_of: z.string(),
  })
  .meta({ id: 'HmoValuation' });

export const RentalQuerySchema = z.strictObject({
  bedrooms: qInt((n) => n.min(0).max(20)).optional().meta({ description: 'Override the recorded bedroom count.' }),
});

/** GET /valuations/{uprn}/rental: a monthly rent from the whole-property lets around the home. */
export const RentalValuationSchema = z
  .object({
    uprn: z.number().int().meta({ description: 'The valued property (an integer, as the vocabulary has it: the spec names no form here, unlike the sale valuation\'s string echo).' }),
    postcode: z.string().nullable(),
    bedrooms: z.number().int().meta({ description: 'Bedrooms the search used: the `bedrooms` query, else the property record.' }),
    monthly_rent: z.number().meta({ description: 'Point estimate, GBP per month: the comparables\' median weighted by distance, recency and kind, to £5.' }),
    average_rent: z.number().meta({ description: 'Mean rent of the comparables brought to today and to the home\'s floor area, GBP per month.' }),
    min_rent: z.number().meta({ description: 'Lowest of those rents; never above monthly_rent.' }),
    max_rent: z.number().meta({ description: 'Highest of those rents; never below monthly_rent.' }),
    comparable_count: z.number().int(),
    search_radius_m: z.union([z.literal(220), z.literal(670), z.literal(1300)]).meta({ description: 'The radius that produced the answer.' }),
    confidence: z.enum(['High', 'Medium', 'Low']),
    as_of: z.string().meta({ description: 'Date of the build\'s latest let: the valuation date.' }),
    currency: z.literal('GBP'),
  })
  .meta({ id: 'RentalValuation' });

/** POST /valuations/development-gdv: a site (one location) and its planned unit mix. */
export const DevelopmentGdvBodySchema = z
  .strictObject({
    uprn: UprnValue.optional(),
    postcode: Postcode.optional(),
    lat: z.number().min(49).max(61).optional(),
    lng: z.number().min(-9).max(2.5).optional(),
    units: z
      .array(
        z.strictObject({
          property_type: houseOrFlatParam(),
          bedrooms: z.number().int().min(0).max(10),
          floor_area_sqft: z.number().positive().max(20_000),
          count: z.number().int().min(1).max(1_000),
        }),
      )
      .min(1)
      .max(50),
    finish_quality: z.enum(FINISH_QUALITY).default('average'),
  })
  .superRefine((v, ctx) => {
    const point = v.lat !== undefined || v.lng !== undefined;
    if (point && (v.lat === undefined || v.lng === undefined)) ctx.addIssue({ code: 'custom', path: [v.lat === undefined ? 'lat' : 'lng'], message: 'lat and lng must be given together' });
    const ways = [v.uprn !== undefined, v.postcode !== undefined, point].filter(Boolean).length;
    if (ways !== 1) ctx.addIssue({ code: 'custom', path: ['location'], message: 'give the location in exactly one way: uprn, postcode or lat+lng' });
  });

export const DevelopmentGdvSchema = z
  .object({
    gdv: z.number().meta({ description: 'Gross development value: the sum of the lines, GBP.' }),
    lines: z.array(
      z.object({
        property_type: z.enum(['house', 'flat']),
        bedrooms: z.number().int(),
        floor_area_sqft: z.number(),
        count: z.number().int(),
        gbp_per_sqft: z.number().meta({ description: 'GBP per sq ft used, after the finish adjustment.' }),
        value_per_unit: z.number(),
        subtotal: z.number(),
      }),
    ),
    evidence: z.array(
      z.object({
        property_type: z.enum(['house', 'flat']),
        basis: z.enum(['new_build', 'resale_with_premium']),
        count: z.number().int().meta({ description: 'Sales behind the median: new-build sales, or resales when basis is resale_with_premium.' }),
        radius_m: z.number(),
        median_gbp_sqft: z.number().meta({ description: 'Median £ per sq ft of those sales, prices brought to the build month.' }),
        new_build_premium: z.number().nullable().meta({ description: 'Multiplier applied to resale £ per sq ft; null for new-build evidence.' }),
      }),
    ),
    confidence: z.enum(['High', 'Medium', 'Low']),
    currency: z.literal('GBP'),
  })
  .meta({ id: 'DevelopmentGdv' });
