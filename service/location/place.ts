import { normalisePostcode } from '../../schemas/address-normalise.ts';
import type { BuildInfo } from '../middleware/data.ts';
import { ApiError } from '../middleware/errors.ts';
import { buildStores } from '../store/stores.ts';

/** Where a request's location is: a point with a radius, or an outcode. */
export type Place =
  | { kind: 'uprn' | 'postcode' | 'point'; label: string; lat: number; lng: number; radius_m: number; la_code: string | null }
  | { kind: 'outcode'; label: string; outcode: string; lat: null; lng: null; radius_m: null; la_code: null };

export interface LocationQuery { uprn?: string; postcode?: string; outcode?: string; lat?: number; lng?: number; radius_m?: number }

/**
 * Resolves the one location the schema let through: a UPRN to its property's point, a
 * postcode to its point, lat+lng as given. An unknown UPRN or postcode is a 404 naming it.
 */
export async function resolvePlace(build: BuildInfo, q: LocationQuery, defaultRadius: number): Promise<Place> {
  const radius_m = q.radius_m ?? defaultRadius;
  if (q.outcode !== undefined) {
    const outcode = q.outcode.toUpperCase();
    return { kind: 'outcode', label: outcode, outcode, lat: null, lng: null, radius_m: null, la_code: null };
  }
  const store = await buildStores.get(build);
  if (q.uprn !== undefined) {
    const [p] = await store.query('property_by_uprn', [BigInt(q.uprn)]);
    if (!p || p.lat === null || p.lng === null) throw new ApiError('not_found', `No property with UPRN ${q.uprn}.`);
    const la = p.postcode ? (await store.query('postcode_point', [String(p.postcode)]))[0]?.la_code : null;
    return { kind: 'uprn', label: `UPRN ${q.uprn}`, lat: Number(p.lat), lng: Number(p.lng), radius_m, la_code: la == null ? null : String(la) };
  }
  if (q.postcode !== undefined) {
    const pc = normalisePostcode(q.postcode)!;
    const [row] = await store.query('postcode_point', [pc]);
    if (!row || row.lat === null || row.lng === null) throw new ApiError('not_found', `No location known for postcode ${pc}.`);
    return { kind: 'postcode', label: pc, lat: Number(row.lat), lng: Number(row.lng), radius_m, la_code: row.la_code == null ? null : String(row.la_code) };
  }
  return { kind: 'point', label: `${q.lat}, ${q.lng}`, lat: q.lat!, lng: q.lng!, radius_m, la_code: null };
}

/** The location as answers echo it. */
export function placeEcho(p: Place): { kind: Place['kind']; label: string; lat: number | null; lng: number | null; radius_m: number | null; la_code: string | null } {
  return { kind: p.kind, label: p.label, lat: p.lat, lng: p.lng, radius_m: p.radius_m, la_code: p.la_code };
}

export type PointPlace = Exclude<Place, { kind: 'outcode' }>;

/** For endpoints whose schema takes no outcode: the location is always a point. */
export async function resolvePoint(build: BuildInfo, q: Omit<LocationQuery, 'outcode'>, defaultRadius: number): Promise<PointPlace> {
  return (await resolvePlace(build, q, defaultRadius)) as PointPlace;
}
