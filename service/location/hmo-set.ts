import { mapPoint, type MapPoint } from './sets.ts';
import type { HMO_STATUSES } from '../../schemas/api/hmo-licences.ts';
import type { BuildStore } from '../store/store.ts';
import { Points } from '../../lib/geo/points.ts';

/**
 * The build's HMO licences held in memory (the `hmoLicences` resource of BuildResources), with a
 * grid over the placed ones for radius queries and an index by outcode. A build without the
 * `hmo_licences` table (published before it existed) yields undefined: the endpoint answers 503.
 */

export interface HmoLicence {
  licence_reference: string; register: string; address: string; postcode: string | null; outcode: string | null;
  uprn: number | null; max_occupants: number | null; households: number | null; storeys: number | null;
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
  const rows = await store.rows('hmo_licences_all');
  const licences: HmoLicence[] = rows.map((r) => ({
    licence_reference: r.licence_reference, register: r.register, address: r.address, postcode: r.postcode, outcode: r.outcode, uprn: r.uprn,
    max_occupants: r.max_occupants, households: r.households, storeys: r.storeys, valid_from: r.valid_from, valid_to: r.valid_to,
    status: r.status as HmoLicence['status'], position: r.position_source as HmoLicence['position'], location: mapPoint(r.lat, r.lng),
  }));
  const placed: number[] = [];
  const byOutcode = new Map<string, number[]>();
  const registers = new Map<string, string | null>();
  rows.forEach((r, i) => {
    if (r.lat !== null && r.lng !== null) placed.push(i);
    const o = licences[i]!.outcode;
    if (o) {
      let a = byOutcode.get(o);
      if (!a) byOutcode.set(o, (a = []));
      a.push(i);
    }
    registers.set(licences[i]!.register, r.register_as_of);
  });
  const grid = new Points(Float64Array.from(placed, (i) => rows[i]!.lat!), Float64Array.from(placed, (i) => rows[i]!.lng!));
  return { licences, grid, placed: Int32Array.from(placed), byOutcode, registers };
}
