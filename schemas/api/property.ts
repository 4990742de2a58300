import { z } from 'zod';
import { qInt } from './common.ts';

const LatLng = z.object({ lat: z.number(), lng: z.number() });

/** The merged property record (spec "Property record"). */
export const PropertyRecordSchema = z
  .object({
    uprn: z.number().int(),
    address: z.string(),
    postcode: z.string(),
    location: LatLng,
    country: z.enum(['England', 'Wales', 'Scotland']),
    property_type: z.string().nullable(),
    build_form: z.string().nullable(),
    floor_area_sqft: z.number().nullable(),
    habitable_rooms: z.number().int().nullable(),
    bedrooms: z.number().int().nullable(),
    tenure: z.enum(['Freehold', 'Leasehold']).nullable(),
    construction_age: z.string().nullable(),
    epc: z.object({ current_rating: z.string().nullable(), potential_rating: z.string().nullable() }).nullable(),
    service_estimate: z.number().nullable(),
    service_sqft: z.number().nullable(),
    plot_size: z.number().nullable(),
    last_sold_price: z.number().nullable(),
    last_sold_date: z.string().nullable(),
    flood_zone_2: z.boolean().nullable().meta({ description: 'null outside England, which the flood layers (planning.data.gov.uk) do not cover, and without a position' }),
    flood_zone_3: z.boolean().nullable().meta({ description: 'null outside England' }),
    conservation_area: z.boolean().nullable().meta({ description: 'null outside England, which the planning layers do not cover' }),
  })
  .partial()
  .meta({ id: 'PropertyRecord', description: 'All fields, or those named in `fields`.' });

export type PropertyRecord = Required<z.infer<typeof PropertyRecordSchema>>;

export const PROPERTY_FIELDS = Object.keys(PropertyRecordSchema.shape) as (keyof typeof PropertyRecordSchema.shape)[];

/** `fields=a,b,c`: every name must be a field of the record. */
export const FieldsSelector = z
  .string()
  .superRefine((v, ctx) => {
    const known = new Set<string>(PROPERTY_FIELDS);
    const unknown = v.split(',').map((f) => f.trim()).filter((f) => !known.has(f));
    if (unknown.length > 0) ctx.addIssue({ code: 'custom', message: `unknown field(s): ${unknown.join(', ')}` });
  })
  .transform((v) => v.split(',').map((f) => f.trim()))
  .meta({ description: `Comma-separated field names; omit for all. Known: ${PROPERTY_FIELDS.join(', ')}.` });

/** The spec: search `limit` is "capped at 50": a larger one is served at 50, not refused. */
export const SEARCH_LIMIT_MAX = 50;

export const AddressSearchQuerySchema = z.strictObject({
  q: z.string().trim().min(2).max(200).meta({ description: 'Search string, at least 2 characters.' }),
  limit: qInt((n) => n.min(1)).default(10).meta({ description: `Results wanted; default 10, capped at ${SEARCH_LIMIT_MAX} (a larger value returns at most ${SEARCH_LIMIT_MAX} and says so in the \`X-Limit-Capped\` header).` }),
});

export const AddressMatchSchema = z.object({
  uprn: z.number().int(),
  address: z.string(),
  postcode: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  score: z.number().min(0).max(1),
});

export const AddressSearchResponseSchema = z
  .object({ results: z.array(AddressMatchSchema), count: z.number().int() })
  .meta({ id: 'AddressSearchResults' });
