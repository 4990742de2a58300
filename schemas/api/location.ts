/**
 * The location parameters of every endpoint that takes a place (DESIGN.md §3): exactly one of
 * `uprn`, `postcode` (full, or a sector written with its space), `outcode`, `local_authority`
 * (where an endpoint answers for a whole authority) or `lat`+`lng` (with `radius_m` where a
 * radius applies). Anything else is a 400 on `location` naming what was given. An endpoint
 * picks the forms it takes with `locationQuery`, spreads `shape` into its query object and
 * refines it with `refine`; `toLocation` turns the validated query into one tagged value for
 * the resolver (service/location/resolve.ts).
 */
import { z } from 'zod';
import { normalisePostcode } from '../address-normalise.ts';
import { DOC_EXAMPLE } from './examples.ts';
import { Lat, Lng, Outcode, Postcode, PostcodeOrSector, qNum, Uprn } from './common.ts';

/** A UPRN as a numeric string (query strings) or a number (JSON bodies); the number after parsing. */
export const UprnValue = Uprn;

export const LocalAuthority = z
  .string()
  .regex(/^[EWSN][0-9]{8}$/, 'must be a local authority GSS code (E06000023)')
  .meta({ description: 'Local authority district, GSS code', example: DOC_EXAMPLE.la_code });

/** The ways a place can be given; `sector` is a `postcode` written as a sector (`BS1 4`). */
export type LocationForm = 'uprn' | 'postcode' | 'sector' | 'outcode' | 'local_authority' | 'point';

export interface LocationOptions {
  forms: readonly LocationForm[];
  /**
   * `radius_m` in metres, its default and maximum: around lat,lng, or around whichever place is
   * given when `anyForm` (a UPRN or postcode is a point too, e.g. for comparables). With
   * `pointsOnly`, an area form (an outcode: everything placed in it) takes no radius: a 400.
   */
  radius?: { default: number; max: number; anyForm?: boolean; pointsOnly?: boolean };
}

/** One place, as the resolver takes it. Postcodes and sectors are canonical (upper case, one space). */
export type Location =
  | { kind: 'uprn'; uprn: number }
  | { kind: 'postcode'; postcode: string }
  | { kind: 'sector'; sector: string }
  | { kind: 'outcode'; outcode: string }
  | { kind: 'local_authority'; code: string }
  | { kind: 'point'; lat: number; lng: number; radius_m: number | null };

/** The location fields of a parsed query (typed loosely: each endpoint's shape has only some of them). */
export interface LocationInput {
  uprn?: unknown;
  postcode?: unknown;
  outcode?: unknown;
  local_authority?: unknown;
  lat?: unknown;
  lng?: unknown;
  radius_m?: unknown;
}

const NAMES: Record<LocationForm, string> = {
  uprn: 'uprn',
  postcode: 'postcode',
  sector: 'postcode',
  outcode: 'outcode',
  local_authority: 'local_authority',
  point: 'lat+lng',
};

/** "uprn, postcode or lat+lng" for the forms an endpoint takes. */
export function formsText(forms: readonly LocationForm[]): string {
  const names = [...new Set(forms.map((f) => NAMES[f]))];
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/** A canonical sector from `BS1 4` (any case, one space), or undefined when it is not one. */
export function canonicalSector(s: string): string | undefined {
  const m = /^([A-Za-z]{1,2}[0-9][A-Za-z0-9]?) ([0-9])$/.exec(s.trim());
  return m ? `${m[1]!.toUpperCase()} ${m[2]}` : undefined;
}

/**
 * The query fields and the one-location refinement for the forms an endpoint takes. The
 * postcode field accepts a sector only when the endpoint takes sectors.
 */
export function locationQuery(opts: LocationOptions) {
  const has = (f: LocationForm) => opts.forms.includes(f);
  const shape = {
    ...(has('uprn') ? { uprn: Uprn.optional() } : {}),
    ...(has('postcode') || has('sector') ? { postcode: (has('sector') ? PostcodeOrSector : Postcode).optional() } : {}),
    ...(has('outcode') ? { outcode: Outcode.optional() } : {}),
    ...(has('local_authority') ? { local_authority: LocalAuthority.optional() } : {}),
    ...(has('point') ? { lat: Lat.optional(), lng: Lng.optional() } : {}),
    ...(has('point') && opts.radius
      ? {
          radius_m: qNum((n) => n.positive().max(opts.radius!.max))
            .optional()
            .meta({ description: `Metres around ${opts.radius.anyForm ? 'the place' : 'lat,lng'}; default ${opts.radius.default}, at most ${opts.radius.max}.` }),
        }
      : {}),
  };
  const options = formsText(opts.forms);
  const refine = (v: LocationInput, ctx: z.RefinementCtx): void => {
    const given: string[] = [];
    if (v.uprn !== undefined) given.push('uprn');
    if (v.postcode !== undefined) given.push('postcode');
    if (v.outcode !== undefined) given.push('outcode');
    if (v.local_authority !== undefined) given.push('local_authority');
    const point = v.lat !== undefined || v.lng !== undefined;
    if (point) given.push(v.lat !== undefined && v.lng !== undefined ? 'lat+lng' : v.lat !== undefined ? 'lat' : 'lng');
    if (point && (v.lat === undefined || v.lng === undefined)) {
      ctx.addIssue({ code: 'custom', path: [v.lat === undefined ? 'lat' : 'lng'], message: 'lat and lng must be given together' });
    }
    if (!point && v.radius_m !== undefined && !opts.radius?.anyForm) {
      ctx.addIssue({ code: 'custom', path: ['radius_m'], message: 'radius_m applies only with lat and lng' });
    }
    const area = v.outcode !== undefined || v.local_authority !== undefined;
    if (area && v.radius_m !== undefined && opts.radius?.anyForm && opts.radius.pointsOnly) {
      ctx.addIssue({ code: 'custom', path: ['radius_m'], message: 'radius_m applies to a point (uprn, postcode or lat+lng), not to an outcode' });
    }
    if (given.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['location'], message: `give the location in exactly one way: ${options}` });
    } else if (given.length > 1) {
      ctx.addIssue({ code: 'custom', path: ['location'], message: `give the location in exactly one way: ${options}; got ${given.join(' and ')}` });
    }
  };
  return { shape, refine, forms: opts.forms, radius: opts.radius };
}

/** The radius a validated query asks for (its default when left out), or null where none applies. */
export function radiusOf(v: LocationInput, opts: LocationOptions): number | null {
  if (!opts.radius) return null;
  return v.radius_m === undefined ? opts.radius.default : Number(v.radius_m);
}

/** The one place a validated query gives (call after `refine` passed). */
export function toLocation(v: LocationInput, opts: LocationOptions): Location {
  if (v.uprn !== undefined) return { kind: 'uprn', uprn: Number(v.uprn) };
  if (v.postcode !== undefined) {
    const sector = canonicalSector(String(v.postcode));
    if (sector) return { kind: 'sector', sector };
    return { kind: 'postcode', postcode: normalisePostcode(String(v.postcode))! };
  }
  if (v.outcode !== undefined) return { kind: 'outcode', outcode: String(v.outcode).toUpperCase() };
  if (v.local_authority !== undefined) return { kind: 'local_authority', code: String(v.local_authority).toUpperCase() };
  if (v.lat !== undefined && v.lng !== undefined) {
    return { kind: 'point', lat: Number(v.lat), lng: Number(v.lng), radius_m: radiusOf(v, opts) };
  }
  throw new Error('toLocation: no location (the query was not refined)');
}

/** Where a point-and-radius answer searched: a point with its radius, or an outcode (no radius). */
export const LocationEcho = z.object({
  kind: z.enum(['uprn', 'postcode', 'outcode', 'point']),
  label: z.string(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  radius_m: z.number().nullable(),
  la_code: z.string().nullable().meta({ description: 'Local authority of the point (GSS), where known.' }),
});
