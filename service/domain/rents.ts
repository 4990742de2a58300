/** Long-term rents: the location forms of GET /rents/long-term and the per-bedroom figures. Pure. */
import { rentStats, type RentStats } from './stats.ts';

export type RentArea =
  | { level: 'sector'; code: string; label: string }
  | { level: 'outcode'; code: string; label: string }
  | { level: 'radius'; lat: number; lng: number; radius_m: number; label: string };

/** Bedroom counts of four or more are one group, as in the ONS tables and rents_area. */
export const MAX_BEDROOM_GROUP = 4;
export const bedroomGroup = (bedrooms: number): number => Math.min(bedrooms, MAX_BEDROOM_GROUP);

/**
 * A full postcode or sector, any case and spacing, as `{ full, sector }` in canonical form
 * (`BS1 4AB`, `BS1 4`). A full postcode is answered for its sector: one postcode has too few lets.
 */
export function parsePostcodeOrSector(input: string): { full: string | null; sector: string } {
  const s = input.toUpperCase().replace(/\s+/g, '');
  if (/[A-Z]{2}$/.test(s)) {
    const full = `${s.slice(0, -3)} ${s.slice(-3)}`;
    return { full, sector: full.slice(0, -2) };
  }
  return { full: null, sector: `${s.slice(0, -1)} ${s.slice(-1)}` };
}

export function rentArea(q: { postcode?: string; outcode?: string; lat?: number; lng?: number; radius_m?: number }): RentArea & { postcode: string | null } {
  if (q.postcode !== undefined) {
    const { full, sector } = parsePostcodeOrSector(q.postcode);
    return { level: 'sector', code: sector, label: full ? `${sector} (sector of ${full})` : sector, postcode: full };
  }
  if (q.outcode !== undefined) {
    const code = q.outcode.toUpperCase();
    return { level: 'outcode', code, label: code, postcode: null };
  }
  const { lat, lng, radius_m } = q as { lat: number; lng: number; radius_m: number };
  return { level: 'radius', lat, lng, radius_m, label: `within ${radius_m} m of ${lat.toFixed(5)}, ${lng.toFixed(5)}`, postcode: null };
}

/** Degrees of latitude and longitude spanning `metres` at `lat`: the bounding box of a radius query. */
export function degreeBox(lat: number, metres: number): { dlat: number; dlng: number } {
  const dlat = metres / 111_320;
  return { dlat, dlng: dlat / Math.max(0.01, Math.cos((lat * Math.PI) / 180)) };
}

export interface Let {
  bedrooms: number;
  rent_pcm: number;
  /** ISO date the let was agreed. */
  date: string;
}

/**
 * Lets by bedroom group (0 … 4 = 4+): median, mean, quartiles and count each; the first and
 * last let dates. Undefined when there are no lets.
 */
export function summariseLets(lets: readonly Let[]): { by_bedrooms: ({ bedrooms: number } & RentStats)[]; from: string; to: string } | undefined {
  if (lets.length === 0) return undefined;
  const groups = new Map<number, number[]>();
  let from = lets[0]!.date, to = lets[0]!.date;
  for (const l of lets) {
    const g = bedroomGroup(l.bedrooms);
    let a = groups.get(g);
    if (!a) groups.set(g, (a = []));
    a.push(l.rent_pcm);
    if (l.date < from) from = l.date;
    if (l.date > to) to = l.date;
  }
  const by_bedrooms = [...groups.keys()].sort((a, b) => a - b).map((bedrooms) => ({ bedrooms, ...rentStats(groups.get(bedrooms)!) }));
  return { by_bedrooms, from, to };
}
