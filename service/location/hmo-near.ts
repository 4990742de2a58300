import type { Around } from './around.ts';
import type { HmoSet } from './hmo-set.ts';

/** The licences a place selects: within its radius (with distances) or with a postcode in its outcode (no distance). */
export function licencesAt(set: HmoSet, place: Around): { i: number; d: number | null }[] {
  if (place.kind === 'outcode') return (set.byOutcode.get(place.outcode) ?? []).map((i) => ({ i, d: null }));
  const out: { i: number; d: number | null }[] = [];
  set.grid.within(place.lat, place.lng, place.radius_m, (k, d) => out.push({ i: set.placed[k]!, d }));
  return out;
}
