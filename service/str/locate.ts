/**
 * The listings a location names, for GET /str/market and GET /str/listings (the same location
 * forms): a full postcode selects those within 1 km of its point, a sector or outcode those
 * placed in it, lat+lng+radius_m a circle, a polygon its inside. `point` is where distances are
 * measured from (null for an area or polygon). A postcode without a point is a not-found reason.
 */
import { normalisePostcode } from '../../schemas/address-normalise.ts';
import type { BuildResources } from '../build/resources.ts';
import { postcodeRow } from '../location/resolve.ts';
import type { StrMarket } from './market-set.ts';
import type { PlaceForCoverage } from '../domain/coverage.ts';

export interface Located {
  idx: readonly number[];
  label: string;
  point: { lat: number; lng: number } | null;
  /** What the place's country is read from, for the source's coverage (routes/coverage.ts); a polygon has none. */
  place: PlaceForCoverage;
}

/** The location fields of both endpoints' queries. */
export interface StrArea {
  postcode?: string | undefined;
  outcode?: string | undefined;
  lat?: number | undefined;
  lng?: number | undefined;
  radius_m?: number | undefined;
  polygon?: string | undefined;
}

/** A full postcode selects the listings within this distance of its point. */
export const POSTCODE_RADIUS_M = 1_000;

/** `lng,lat lng,lat …` as vertices (the schema has checked the syntax). */
export function parsePolygon(text: string): [number, number][] {
  return text.trim().split(/\s+/).map((p) => {
    const [lng, lat] = p.split(',');
    return [Number(lng), Number(lat)];
  });
}

/** The listings the location names (before filters) and its label. */
export async function locateListings(set: StrMarket, q: StrArea, data: BuildResources): Promise<Located | { not_found: string }> {
  if (q.outcode !== undefined) {
    const code = q.outcode.toUpperCase();
    return { idx: set.outcode(code), label: code, point: null, place: { kind: 'outcode', label: code, outcode: code, la_code: null, lat: null, lng: null } };
  }
  if (q.postcode !== undefined) {
    const compact = q.postcode.toUpperCase().replace(/\s+/g, '');
    if (/[A-Z]{2}$/.test(compact)) {
      const pc = normalisePostcode(q.postcode)!;
      const row = await postcodeRow(pc, data);
      if (!row || row.lat === null || row.lng === null) return { not_found: `No location known for postcode ${pc}.` };
      const point = { lat: row.lat, lng: row.lng };
      const r = q.radius_m ?? POSTCODE_RADIUS_M;
      return { idx: set.within(point.lat, point.lng, r), label: `within ${Math.round(r)} m of ${pc}`, point, place: { kind: 'postcode', label: pc, postcode: pc, la_code: null, ...point } };
    }
    // A sector: the outcode and the sector digit (its last character).
    const sector = `${compact.slice(0, -1)} ${compact.slice(-1)}`;
    return { idx: set.sector(sector), label: sector, point: null, place: { kind: 'sector', label: sector, sector, la_code: null, lat: null, lng: null } };
  }
  if (q.polygon !== undefined) {
    const ring = parsePolygon(q.polygon);
    const label = `polygon of ${ring.length} points`;
    return { idx: set.inPolygon(ring), label, point: null, place: { kind: 'polygon', label, la_code: null, lat: null, lng: null } };
  }
  const [lat, lng, r] = [q.lat!, q.lng!, q.radius_m!];
  const label = `within ${Math.round(r)} m of ${lat}, ${lng}`;
  return { idx: set.within(lat, lng, r), label, point: { lat, lng }, place: { kind: 'point', label: `${lat},${lng}`, la_code: null, lat, lng } };
}

