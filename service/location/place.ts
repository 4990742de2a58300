import { normalisePostcode } from '../../schemas/address-normalise.ts';
import type { BuildStore } from '../store/store.ts';

/** Where a request's location is: a point with a radius, or an outcode. */
export type Place =
  | { kind: 'uprn' | 'postcode' | 'point'; label: string; lat: number; lng: number; radius_m: number; la_code: string | null }
  | { kind: 'outcode'; label: string; outcode: string; lat: null; lng: null; radius_m: null; la_code: null };
export type PointPlace = Exclude<Place, { kind: 'outcode' }>;

export interface LocationQuery { uprn?: number; postcode?: string; outcode?: string; lat?: number; lng?: number; radius_m?: number }

/**
 * Resolves the one location the schema let through: a UPRN to its property's point, a
 * postcode to its point, lat+lng as given, an outcode as itself. An unknown UPRN or postcode
 * is a not-found result with its reason (the route makes it a 404).
 */
export async function resolvePlace(store: BuildStore, q: LocationQuery, defaultRadius: number): Promise<Place | { notFound: string }> {
  const radius_m = q.radius_m ?? defaultRadius;
  if (q.outcode !== undefined) {
    const outcode = q.outcode.toUpperCase();
    return { kind: 'outcode', label: outcode, outcode, lat: null, lng: null, radius_m: null, la_code: null };
  }
  if (q.uprn !== undefined) {
    const [p] = await store.query('property_by_uprn', [BigInt(q.uprn)]);
    if (!p || p.lat === null || p.lng === null) return { notFound: `No property with UPRN ${q.uprn}.` };
    const la = p.postcode ? (await store.query('postcode_point', [String(p.postcode)]))[0]?.la_code : null;
    return { kind: 'uprn', label: `UPRN ${q.uprn}`, lat: Number(p.lat), lng: Number(p.lng), radius_m, la_code: la == null ? null : String(la) };
  }
  if (q.postcode !== undefined) {
    const pc = normalisePostcode(q.postcode)!;
    const [row] = await store.query('postcode_point', [pc]);
    if (!row || row.lat === null || row.lng === null) return { notFound: `No location known for postcode ${pc}.` };
    return { kind: 'postcode', label: pc, lat: Number(row.lat), lng: Number(row.lng), radius_m, la_code: row.la_code == null ? null : String(row.la_code) };
  }
  return { kind: 'point', label: `${q.lat}, ${q.lng}`, lat: q.lat!, lng: q.lng!, radius_m, la_code: null };
}

/** The location as answers echo it. */
export function placeEcho(p: Place): { kind: Place['kind']; label: string; lat: number | null; lng: number | null; radius_m: number | null; la_code: string | null } {
  return { kind: p.kind, label: p.label, lat: p.lat, lng: p.lng, radius_m: p.radius_m, la_code: p.la_code };
}
