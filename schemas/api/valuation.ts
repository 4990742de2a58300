import { z } from 'zod';
import { FINISH_QUALITY, Postcode, Uprn, qBool, qInt } from './common.ts';

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
    article_4: z.boolean(),
    as_of: z.string(),
  })
  .meta({ id: 'HmoValuation' });

export const RentalQuerySchema = z.strictObject({
  bedrooms: qInt().min(0).max(20).optional().meta({ description: 'Override the recorded bedroom count.' }),
});

/** POST /valuations/development-gdv: a site and its planned unit mix. */
export const DevelopmentGdvBodySchema = z
  .strictObject({
    postcode: Postcode.optional(),
    uprn: Uprn.optional(),
    units: z
      .array(
        z.strictObject({
          unit_type: z.enum(['house', 'apartment']),
          bedrooms: z.number().int().min(0).max(10),
          floor_area_sqft: z.number().positive().max(20_000).optional(),
          count: z.number().int().min(1).max(1_000),
        }),
      )
      .min(1)
      .max(50),
    finish_quality: z.enum(FINISH_QUALITY).default('average'),
  })
  .superRefine((v, ctx) => {
    if ((v.postcode === undefined) === (v.uprn === undefined)) ctx.addIssue({ code: 'custom', path: ['location'], message: 'give exactly one of postcode or uprn' });
  });
