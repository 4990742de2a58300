import { mapPoint, type MapPoint } from './sets.ts';
import type { HMO_STATUSES } from '../../schemas/api/hmo-licences.ts';
import type { BuildStore } from '../store/store.ts';
import { Points } from '../../lib/geo/points.ts';
import { numOrNull as intOrNull, textOrNull as strOrNull } from '../store/values.ts';

/**
 * The build's HMO licences held in memory (the `hmoLicences` resource of BuildResources), with a
 * grid over the placed ones for radius queries and an index by outcode. A build without the
 * `hmo_licences` table (published before it existed) yields undefined: the endpoint answers 503.
 */

export interface HmoLicence {
  licence_reference: string; register: string; address: string; postcode: string | null; outcode: string | null;
  uprn: string | null; max_occupants: number | null; households: number | null; storeys: number | null;
  valid_from: string | null; valid_to: string | null; status: (typeof HMO_STATUSES)[number] | null;
  position: 'uprn' | 'postcode' | null;
  /** Where the console's map draws it (its address's point, else its postcode's). */
  location: MapPoint;
}
export interface HmoSet {
  licences: HmoLicence[];
  /** Grid over the placed licences; `placed[k]` is the licence of grid point k. */
  grid: Points;
  placed: Int32Array;
  byOutcode: Map<string, number[]>;
  /** Each register's as-of date. */
  registers: Map<string, string | null>;
}

export async function loadHmoSet(store: BuildStore): Promise<HmoSet | undefined> {
  if (!store.tables.has('hmo_licences')) return undefined;
  const rows: Record<string, unknown>[] = await store.query('hmo_licences_all');
  const licences: HmoLicence[] = rows.map((r) => ({
    licence_reference: String(r.licence_reference), register: String(r.register), address: String(r.address),
    postcode: strOrNull(r.postcode), outcode: strOrNull(r.outcode), uprn: strOrNull(r.uprn),
    max_occupants: intOrNull(r.max_occupants), households: intOrNull(r.households), storeys: intOrNull(r.storeys),
    valid_from: strOrNull(r.valid_from), valid_to: strOrNull(r.valid_to), status: strOrNull(r.status) as HmoLicence['status'],
    position: strOrNull(r.position_source) as HmoLicence['position'],
    location: mapPoint(r.lat, r.lng),
  }));
  const placed: number[] = [];
  const byOutcode = new Map<string, number[]>();
  const registers = new Map<string, string | null>();
  rows.forEach((r, i) => {
    if (r.lat !== null && r.lat !== undefined && r.lng !== null && r.lng !== undefined) placed.push(i);
    const o = licences[i]!.outcode;
    if (o) {
      let a = byOutcode.get(o);
      if (!a) byOutcode.set(o, (a = []));
      a.push(i);
    }
    registers.set(licences[i]!.register, strOrNull(r.register_as_of));
  });
  const grid = new Points(Float64Array.from(placed, (i) => Number(rows[i]!.lat)), Float64Array.from(placed, (i) => Number(rows[i]!.lng)));
  return { licences, grid, placed: Int32Array.from(placed), byOutcode, registers };
}
