/**
 * Building blocks for request schemas. Query values arrive as strings: numbers are
 * coerced, booleans accept exactly `true` or `false`; blank values count as absent.
 */
import { z } from 'zod';
import { DOC_EXAMPLE } from './examples.ts';

export const FINISH_QUALITY = ['below_average', 'average', 'above_average', 'very_high'] as const;
export const PROPERTY_KIND = ['house', 'apartment'] as const;

export const qInt = () => z.coerce.number().int();
export const qNum = () => z.coerce.number();
/** A query boolean with a default; the JSON Schema shows the accepted strings. */
export const qBool = (dflt: boolean) =>
  z
    .enum(['true', 'false'])
    .default(dflt ? 'true' : 'false')
    .transform((v) => v === 'true');

/** A UPRN as written (1 to 12 digits), parsed to the number handlers use (12 digits fit a double exactly). */
export const Uprn = z
  .string()
  .regex(/^[0-9]{1,12}$/, 'must be a UPRN: 1 to 12 digits')
  .meta({ description: 'Unique Property Reference Number', example: DOC_EXAMPLE.uprn })
  .transform(Number);
/** Full postcode, any case, optional space. */
export const Postcode = z
  .string()
  .regex(/^[A-Za-z]{1,2}[0-9][A-Za-z0-9]? ?[0-9][A-Za-z]{2}$/, 'must be a full UK postcode')
  .meta({ example: DOC_EXAMPLE.postcode });
/**
 * Full postcode (optional space) or sector written with its space (`SW1A 1`). Without the
 * space a sector is ambiguous with a district: `BS14` is the district BS14, not the sector
 * BS1 4, so it is refused with a pointer to `outcode` rather than guessed.
 */
export const PostcodeOrSector = z
  .string()
  .regex(
    /^[A-Za-z]{1,2}[0-9][A-Za-z0-9]?( [0-9]| ?[0-9][A-Za-z]{2})$/,
    'must be a full UK postcode, or a postcode sector with its space (BS1 4); for a district such as BS14 use outcode',
  )
  .meta({ example: DOC_EXAMPLE.sector });
export const Outcode = z.string().regex(/^[A-Za-z]{1,2}[0-9][A-Za-z0-9]?$/, 'must be a UK outcode (district)').meta({ example: DOC_EXAMPLE.outcode });
export const Lat = qNum().min(49).max(61).meta({ description: 'WGS84 latitude (UK extent)' });
export const Lng = qNum().min(-9).max(2.5).meta({ description: 'WGS84 longitude (UK extent)' });
export const Page = qInt().min(1).max(10_000).default(1);
export const PageSize = (dflt: number, max: number) => qInt().min(1).max(max).default(dflt);

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
