import type { BlockCache } from '../../lib/files/block-file.ts';
import { CellPoints } from '../../lib/files/cell-points.ts';
import type { KeyedRowsFile } from '../../lib/files/keyed-rows-file.ts';
import { LOCATION_SET_FILES } from '../../lib/files/location-sets-files.ts';
import { Points } from '../../lib/geo/points.ts';
import type { HMO_STATUSES } from '../../schemas/api/hmo-licences.ts';
import type { BuildInfo } from '../build/source.ts';
import { LookupFileError, openServingFile } from '../lookups/lookup-files.ts';
import type { Row } from '../store/queries.ts';
import type { BuildStore } from '../store/store.ts';
import { mapPoint, type MapPoint, type SetPlace } from './sets.ts';

/**
 * The build's HMO licences (the `hmoLicences` resource of BuildResources; GET /hmo/licences):
 * the placed ones within a radius, with distances, or those with a postcode in an outcode.
 * Read where they lie from the ETL's files (lib/files/location-sets-files.ts), or for a build
 * published before them held in the heap from the store; the two give a place's licences in
 * different orders, and the answer sorts them in a total order (register and reference last).
 * A build without the `hmo_licences` table yields undefined: the endpoint answers 503.
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
  /** The licences a place selects: within its radius (with distances) or with a postcode in its outcode (no distance). */
  at(place: SetPlace): Array<{ h: HmoLicence; d: number | null }>;
  /** Each register's as-of date. */
  registers: Map<string, string | null>;
  close(): void;
}

type LicenceRow = Omit<Row<'hmo_licences_all'>, 'register_as_of' | 'valid_from' | 'valid_to'> & { valid_from: string | null; valid_to: string | null };

function toLicence(r: LicenceRow): HmoLicence {
  return {
    licence_reference: r.licence_reference, register: r.register, address: r.address, postcode: r.postcode, outcode: r.outcode, uprn: r.uprn,
    max_occupants: r.max_occupants, households: r.households, storeys: r.storeys, valid_from: r.valid_from, valid_to: r.valid_to,
    status: r.status as HmoLicence['status'], position: r.position_source as HmoLicence['position'], location: mapPoint(r.lat, r.lng),
  };
}

export async function loadHmoSet(store: BuildStore): Promise<HmoSet | undefined> {
  if (!store.tables.has('hmo_licences')) return undefined;
  const rows = await store.rows('hmo_licences_all');
  const licences = rows.map((r) => toLicence(r as LicenceRow));
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
  return {
    at(place) {
      if (place.kind === 'outcode') return (byOutcode.get(place.outcode) ?? []).map((i) => ({ h: licences[i]!, d: null }));
      const out: Array<{ h: HmoLicence; d: number | null }> = [];
      grid.within(place.lat, place.lng, place.radius_m, (k, d) => out.push({ h: licences[placed[k]!]!, d }));
      return out;
    },
    registers,
    close: () => undefined,
  };
}

/**
 * The licences over the build's two HMO files (by cell, by outcode), or null when its manifest
 * lists neither. Listed but missing, cut short, not theirs, or one without the other: a
 * `LookupFileError`.
 */
export function openHmoFiles(build: BuildInfo, pages: BlockCache): HmoSet | null {
  const f = LOCATION_SET_FILES;
  const opened: KeyedRowsFile<unknown>[] = [];
  try {
    const points = openServingFile<LicenceRow>(build, f.hmoPoints, pages, 'HMO licence points');
    if (points) opened.push(points);
    const outcodes = openServingFile<LicenceRow>(build, f.hmoOutcodes, pages, 'HMO licences by outcode');
    if (outcodes) opened.push(outcodes);
    if (!points && !outcodes) return null;
    if (!points || !outcodes) throw new LookupFileError(`build ${build.id}: its manifest lists only one of the HMO licence files (${f.hmoPoints.artifact}, ${f.hmoOutcodes.artifact})`);
    const registers = registersOf((points.meta.extra?.summary as { registers?: unknown } | undefined)?.registers);
    if (!registers) throw new LookupFileError(`build ${build.id}: ${points.path} has no registers in its summary`);
    const grid = new CellPoints(points, f.hmoPoints.cell.m);
    return {
      at(place) {
        if (place.kind === 'outcode') return outcodes.get(place.outcode).map((r) => ({ h: toLicence(r), d: null }));
        const out: Array<{ h: HmoLicence; d: number | null }> = [];
        grid.within(place.lat, place.lng, place.radius_m, (r, d) => out.push({ h: toLicence(r), d }));
        return out;
      },
      registers,
      close: () => { for (const o of opened) o.close(); },
    };
  } catch (e) {
    for (const o of opened) o.close();
    throw e;
  }
}

/** The summary's registers (a JSON object of register → as-of or null), or null when it is not one. */
function registersOf(json: unknown): Map<string, string | null> | null {
  if (typeof json !== 'string') return null;
  const o = JSON.parse(json) as unknown;
  if (!o || typeof o !== 'object' || Array.isArray(o)) return null;
  const entries = Object.entries(o as Record<string, unknown>);
  return entries.every(([, v]) => v === null || typeof v === 'string') ? new Map(entries as Array<[string, string | null]>) : null;
}
