/**
 * GET /hmo/licences (DESIGN.md §6, issue 18 item 4): licensed HMOs near a location, from the
 * council registers in the build (docs/hmo-licences.md).
 */
import { z } from 'zod';
import { Page, qInt } from './common.ts';
import { LocationEcho, locationQuery, type LocationOptions } from './location.ts';

export const HMO_STATUSES = ['current', 'pending', 'expired'] as const;

/** Around a UPRN, postcode or point (radius_m), or every licence whose postcode is in an outcode (no radius). */
export const HMO_LICENCES_LOCATION: LocationOptions = {
  forms: ['uprn', 'postcode', 'outcode', 'point'], radius: { default: 1_000, max: 5_000, anyForm: true, pointsOnly: true },
};
const location = locationQuery(HMO_LICENCES_LOCATION);

export const HmoLicencesQuerySchema = z
  .strictObject({
    ...location.shape,
    status: z.enum([...HMO_STATUSES, 'all']).default('current')
      .meta({ description: 'current (in force on the build date; the default), pending (granted, starting later), expired, or all.' }),
    page: Page,
    per_page: qInt((n) => n.min(1).max(50)).default(25),
  })
  .superRefine(location.refine);

export const HmoLicenceSchema = z.object({
  licence_reference: z.string().meta({ description: 'The council\'s licence reference.' }),
  address: z.string().meta({ description: 'As the register writes it.' }),
  postcode: z.string().nullable(),
  uprn: z.number().int().nullable().meta({ description: 'The UPRN the address matcher gave the address; null when it allows no match.' }),
  max_occupants: z.number().int().nullable().meta({ description: 'Permitted occupants; null when the register does not record it.' }),
  households: z.number().int().nullable().meta({ description: 'Households (units of accommodation) the licence allows; null when not recorded.' }),
  storeys: z.number().int().nullable().meta({ description: 'Where the register gives it; null otherwise.' }),
  valid_from: z.string().nullable().meta({ description: 'Licence start, ISO date, as published.' }),
  valid_to: z.string().nullable().meta({ description: 'Licence end, ISO date.' }),
  status: z.enum(HMO_STATUSES).nullable().meta({ description: 'On the build date: expired when valid_to is before it, pending when valid_from is after it, else current; null when a date is missing.' }),
  distance_m: z.number().int().nullable().meta({ description: 'From the point to the licence\'s position (its address, else its postcode); null for an outcode.' }),
  location: z.object({ lat: z.number(), lng: z.number() }).nullable().meta({ description: 'Its map point (WGS84), null where it has no position.' }),
  position: z.enum(['uprn', 'postcode']).nullable().meta({ description: 'Where the licence is placed: the matched address, or the postcode\'s point; null when neither is known (outcode answers only).' }),
});

export const HmoLicencesSchema = z.object({
  location: LocationEcho,
  status: z.enum([...HMO_STATUSES, 'all']),
  total: z.number().int().meta({ description: 'Licences at the location with the status asked for.' }),
  page: z.number().int(),
  per_page: z.number().int(),
  matched: z.number().int().meta({ description: 'Of `total`, licences matched to a UPRN.' }),
  matched_share: z.number().nullable().meta({ description: '`matched` ÷ `total`; null when total is 0.' }),
  by_status: z.object({ current: z.number().int(), pending: z.number().int(), expired: z.number().int() })
    .meta({ description: 'Every licence at the location by status, whatever `status` asked for.' }),
  licences: z.array(HmoLicenceSchema),
  source: z.object({
    name: z.string(),
    registers: z.array(z.object({ register: z.string(), as_of: z.string().nullable() }))
      .meta({ description: 'The register files behind the licences at the location, each with its as-of date (its latest licence start on or before the build date).' }),
    as_of: z.string().nullable().meta({ description: 'The latest as-of date of those registers; null when none.' }),
  }),
});
