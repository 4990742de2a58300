/**
 * The location convention of the point-and-area endpoints (crime, schools, listings,
 * deals): exactly one of `uprn`, `postcode`, `outcode` (where the endpoint takes an area) or
 * `lat`+`lng`; `radius_m` around it. A request that gives two, or half a point, is a 400
 * that names what was given. (Written before the lookups issue's shared helper, location.ts,
 * reached main; the crime, schools, listings and deals endpoints should move to it.)
 */
import { z } from 'zod';
import { Lat, Lng, Outcode, Postcode, qNum, Uprn } from './common.ts';

export const locationFields = {
  uprn: Uprn.optional(),
  postcode: Postcode.optional().meta({ description: 'A full postcode; its point is the centre.' }),
  lat: Lat.optional(),
  lng: Lng.optional(),
};
export const areaLocationFields = {
  ...locationFields,
  outcode: Outcode.optional().meta({ description: 'A postcode district: everything placed in it (no radius).' }),
};

/** Optional, so a radius sent with an outcode can be refused; the handler applies the default. */
export const radiusField = (dflt: number, max: number) =>
  qNum().positive().max(max).optional().meta({ description: `Metres around the location; default ${dflt}, at most ${max}.` });

type Loc = { uprn?: unknown; postcode?: unknown; outcode?: unknown; lat?: unknown; lng?: unknown };

/** The ways a location was given, by name (`lat+lng` counted once, however half-given). */
export function locationWays(v: Loc): string[] {
  const ways: string[] = [];
  if (v.uprn !== undefined) ways.push('uprn');
  if (v.postcode !== undefined) ways.push('postcode');
  if (v.outcode !== undefined) ways.push('outcode');
  if (v.lat !== undefined || v.lng !== undefined) ways.push('lat+lng');
  return ways;
}

/**
 * Refinement: exactly one way. `accepted` lists the ways this endpoint takes, for the
 * message; `radiusGiven` whether the caller sent radius_m (an outcode takes none).
 */
export function exactlyOneLocation(accepted: readonly string[]) {
  return (v: Loc & { radius_m?: unknown }, ctx: z.RefinementCtx): void => {
    if ((v.lat === undefined) !== (v.lng === undefined)) {
      ctx.addIssue({ code: 'custom', path: [v.lat === undefined ? 'lat' : 'lng'], message: 'lat and lng must be given together' });
    }
    const ways = locationWays(v);
    if (ways.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['location'], message: `give the location in one way: ${accepted.join(', ')}` });
    } else if (ways.length > 1) {
      ctx.addIssue({ code: 'custom', path: ['location'], message: `give the location in exactly one way, not ${ways.join(' and ')}: one of ${accepted.join(', ')}` });
    }
    if (v.outcode !== undefined && v.radius_m !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['radius_m'], message: 'radius_m applies to a point (uprn, postcode or lat+lng), not to an outcode' });
    }
  };
}

/** A resolved location: a point (with the radius) or an outcode, and what to call it in answers. */
export const LocationEcho = z.object({
  kind: z.enum(['uprn', 'postcode', 'outcode', 'point']),
  label: z.string(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  radius_m: z.number().nullable(),
  la_code: z.string().nullable().meta({ description: 'Local authority of the point (GSS), where known.' }),
});
