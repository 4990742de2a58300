/**
 * Building blocks for request schemas. Query values arrive as strings: numbers must be
 * written in plain decimal (below), booleans accept exactly `true` or `false`; blank values
 * count as absent.
 */
import { z } from 'zod';
import { DOC_EXAMPLE } from './examples.ts';

export const FINISH_QUALITY = ['below_average', 'average', 'above_average', 'very_high'] as const;
export const PROPERTY_KIND = ['house', 'apartment'] as const;

/**
 * The one number grammar of query parameters: plain decimal, an optional leading `-`, no
 * leading zeros, a fraction only where a number (not an integer) is wanted. Number()'s own
 * grammar is far wider (`0x1F`, ` 1`, `+1`, `1e-400` are all numbers to it), so a value is
 * checked here before it is converted; `-0` and values too large for a double are refused too.
 */
const DECIMAL_INT = /^-?(0|[1-9][0-9]*)$/;
const DECIMAL_NUM = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;
const decimal = (grammar: RegExp, message: string) => (v: unknown, ctx: z.RefinementCtx) => {
  if (typeof v !== 'string') return v;
  const n = Number(v);
  if (grammar.test(v) && Number.isFinite(n) && !Object.is(n, -0)) return n;
  ctx.addIssue({ code: 'custom', message: `${message}; got ${JSON.stringify(v.slice(0, 40))}` });
  return z.NEVER;
};
const intGrammar = decimal(DECIMAL_INT, 'must be a whole number in plain decimal digits (optional leading -, no leading zeros, no + or spaces)');
const numGrammar = decimal(DECIMAL_NUM, 'must be a number in plain decimal (digits, optional leading - and .fraction; no exponent, + or spaces)');
/** A query integer; bounds go inside (`qInt((n) => n.min(1).max(50))`), as the value is a number only after the grammar check. */
export const qInt = (bounds: (n: z.ZodNumber) => z.ZodNumber = (n) => n) => z.preprocess(intGrammar, bounds(z.number().int()));
/** A query number; bounds as for qInt. */
export const qNum = (bounds: (n: z.ZodNumber) => z.ZodNumber = (n) => n) => z.preprocess(numGrammar, bounds(z.number()));
/** A query boolean with a default; the JSON Schema shows the accepted strings. */
export const qBool = (dflt: boolean) =>
  z
    .enum(['true', 'false'])
    .default(dflt ? 'true' : 'false')
    .transform((v) => v === 'true');

/**
 * A UPRN in any parameter (path, query or body): a number, or a numeric string of 1 to 12
 * digits, parsed to the number handlers use (12 digits fit a double exactly). Both forms are
 * published, so a UPRN from any answer goes into any operation of the typed client as it is.
 */
const UPRN_MESSAGE = 'must be a UPRN: 1 to 12 digits';
export const Uprn = z
  .union(
    [
      z.string().regex(/^[0-9]{1,12}$/, UPRN_MESSAGE).transform(Number),
      z.number(UPRN_MESSAGE).int(UPRN_MESSAGE).min(0, UPRN_MESSAGE).max(999_999_999_999, UPRN_MESSAGE),
    ],
    { error: UPRN_MESSAGE },
  )
  .meta({ description: 'Unique Property Reference Number, as a number or a numeric string', example: DOC_EXAMPLE.uprn });
/** Full postcode, any case, optional space; surrounding spaces trimmed (a pasted ` BS1 1UE `). */
export const Postcode = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{1,2}[0-9][A-Za-z0-9]? ?[0-9][A-Za-z]{2}$/, 'must be a full UK postcode')
  .meta({ example: DOC_EXAMPLE.postcode });
/**
 * Full postcode (optional space) or sector written with its space (`SW1A 1`). Without the
 * space a sector is ambiguous with a district: `BS14` is the district BS14, not the sector
 * BS1 4, so it is refused with a pointer to `outcode` rather than guessed.
 */
export const PostcodeOrSector = z
  .string()
  .trim()
  .regex(
    /^[A-Za-z]{1,2}[0-9][A-Za-z0-9]?( [0-9]| ?[0-9][A-Za-z]{2})$/,
    'must be a full UK postcode, or a postcode sector with its space (BS1 4); for a district such as BS14 use outcode',
  )
  .meta({ example: DOC_EXAMPLE.sector });
export const Outcode = z.string().trim().regex(/^[A-Za-z]{1,2}[0-9][A-Za-z0-9]?$/, 'must be a UK outcode (district)').meta({ example: DOC_EXAMPLE.outcode });
export const Lat = qNum((n) => n.min(49).max(61)).meta({ description: 'WGS84 latitude (UK extent)' });
export const Lng = qNum((n) => n.min(-9).max(2.5)).meta({ description: 'WGS84 longitude (UK extent)' });
export const Page = qInt((n) => n.min(1).max(10_000)).default(1);
export const PageSize = (dflt: number, max: number) => qInt((n) => n.min(1).max(max)).default(dflt);

/**
 * Refinement for the area endpoints: the location is given in exactly one way
 * (postcode, outcode, lat+lng, or polygon where the endpoint takes one); lat and lng
 * go together, and radius_m only with them.
 */
export function oneLocation(opts: { polygon?: boolean; radiusRequired?: boolean } = {}) {
  return (
    v: { postcode?: unknown; outcode?: unknown; lat?: unknown; lng?: unknown; radius_m?: unknown; polygon?: unknown },
    ctx: z.RefinementCtx,
  ): void => {
    const point = v.lat !== undefined || v.lng !== undefined;
    const ways = [v.postcode !== undefined, v.outcode !== undefined, point, v.polygon !== undefined].filter(Boolean).length;
    if (point && (v.lat === undefined || v.lng === undefined)) {
      ctx.addIssue({ code: 'custom', path: [v.lat === undefined ? 'lat' : 'lng'], message: 'lat and lng must be given together' });
    }
    if (point && opts.radiusRequired && v.radius_m === undefined) {
      ctx.addIssue({ code: 'custom', path: ['radius_m'], message: 'radius_m is required with lat and lng' });
    }
    if (!point && v.radius_m !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['radius_m'], message: 'radius_m applies only with lat and lng' });
    }
    if (ways !== 1) {
      const options = opts.polygon ? 'postcode, outcode, lat+lng+radius_m or polygon' : 'postcode, outcode or lat+lng';
      ctx.addIssue({ code: 'custom', path: ['location'], message: `give the location in exactly one way: ${options}` });
    }
  };
}
