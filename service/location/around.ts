import { radiusOf, toLocation, type LocationInput, type LocationOptions } from '../../schemas/api/location.ts';
import type { BuildResources } from '../build/resources.ts';
import { resolveLocation, type NotPlaced } from './resolve.ts';

/** Where a point-and-radius endpoint (crime, schools, listings, deals) searches: a point with its radius, or an outcode. */
export type Around =
  | { kind: 'uprn' | 'postcode' | 'point'; label: string; lat: number; lng: number; radius_m: number; la_code: string | null }
  | { kind: 'outcode'; label: string; outcode: string; lat: null; lng: null; radius_m: null; la_code: null };
export type AroundPoint = Exclude<Around, { kind: 'outcode' }>;

/**
 * The validated query's location, resolved by the shared resolver (resolve.ts) and made a point
 * with a radius (`radius_m` as asked, its default, or `radius` where the endpoint has its own
 * distance) or an outcode; not placed for a UPRN or postcode the build cannot put on the map.
 */
export async function aroundPlace(query: LocationInput, opts: LocationOptions, data: BuildResources, radius?: number): Promise<Around | NotPlaced> {
  const place = await resolveLocation(toLocation(query, opts), data);
  if ('notFound' in place) return place;
  if (place.kind === 'outcode') return { kind: 'outcode', label: place.label, outcode: place.outcode!, lat: null, lng: null, radius_m: null, la_code: null };
  if (place.kind !== 'uprn' && place.kind !== 'postcode' && place.kind !== 'point') {
    throw new Error(`aroundPlace: ${place.kind} is not a form these endpoints take`);
  }
  if (place.lat === null || place.lng === null) {
    return { notFound: `${place.kind === 'uprn' ? `UPRN ${place.uprn}` : `Postcode ${place.postcode}`} has no known position.` };
  }
  const radius_m = radius ?? radiusOf(query, opts);
  if (radius_m === null) throw new Error('aroundPlace: the endpoint declares no radius and passed none');
  return { kind: place.kind, label: place.label, lat: place.lat, lng: place.lng, radius_m, la_code: place.la_code };
}

/** The location as answers echo it (schemas/api/location.ts LocationEcho). */
export function aroundEcho(p: Around): { kind: Around['kind']; label: string; lat: number | null; lng: number | null; radius_m: number | null; la_code: string | null } {
  return { kind: p.kind, label: p.label, lat: p.lat, lng: p.lng, radius_m: p.radius_m, la_code: p.la_code };
}
