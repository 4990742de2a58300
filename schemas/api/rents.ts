/**
 * GET /rents/long-term (DESIGN.md §6 #12, named in the spec's pricing): area long-term
 * rents by bedroom count from the lets of the last 24 months.
 */
import { z } from 'zod';
import { Lat, Lng, Outcode, PostcodeOrSector, qInt, qNum } from './common.ts';

export const RENTAL_KIND = ['house', 'flat'] as const;

export const LongTermRentsQuerySchema = z
  .strictObject({
    postcode: PostcodeOrSector.optional().meta({ description: 'Full postcode (answered for its sector) or a sector such as `BS1 4`.' }),
    outcode: Outcode.optional(),
    lat: Lat.optional(),
    lng: Lng.optional(),
    radius_m: qNum().positive().max(5_000).optional().meta({ description: 'Metres around lat,lng, up to 5 km; required with lat and lng.' }),
    bedrooms: qInt().min(0).max(20).optional().meta({ description: 'Only this bedroom count; 0 is a studio, 4 or more is the "4+" group.' }),
    property_type: z.enum(RENTAL_KIND).optional().meta({ description: 'Only lets of houses or of flats.' }),
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
  sample_size: z.number().int(),
});

export const LongTermRentsSchema = z
  .object({
    location: z.string().meta({ description: 'Area label: the sector, the outcode, or the radius around the point.' }),
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
