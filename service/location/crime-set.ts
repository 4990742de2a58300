import { CellPoints } from '../../lib/files/cell-points.ts';
import { BlockFileError, type BlockCache } from '../../lib/files/block-file.ts';
import type { KeyedRowsFile } from '../../lib/files/keyed-rows-file.ts';
import { LOCATION_SET_FILES } from '../../lib/files/location-sets-files.ts';
import { Points } from '../../lib/geo/points.ts';
import { CRIME_TYPES } from '../../schemas/sources/police-crime.ts';
import type { BuildInfo } from '../build/source.ts';
import { LookupFileError, openServingFile } from '../lookups/lookup-files.ts';
import type { BuildStore } from '../store/store.ts';

/**
 * The build's crime for GET /crime (the `crime` resource of BuildResources): the crimes placed
 * within a radius by month and category, the addresses there, each authority's totals. Read
 * where it lies from the ETL's files (lib/files/location-sets-files.ts), or for a build
 * published before them held in the heap from the store; both answer alike (a radius's counts
 * do not depend on the order of its crimes, and the nearest authority breaks ties by code).
 * A build without the crime tables yields undefined: the endpoint answers 503.
 */
export interface CrimeSet {
  /** Every month the crimes cover, ascending. */
  months: string[];
  latestRelease: string;
  /** The placed crimes within `radiusM`: each one's month (index into `months`) and category (into CRIME_TYPES; 255 for another). */
  within(lat: number, lng: number, radiusM: number): { month: number[]; type: number[] };
  /** The addresses of the postcodes within `radiusM`. */
  addressesWithin(lat: number, lng: number, radiusM: number): number;
  /** A point's local authority: its nearest postcode's within 1 km (equal distances: the smaller code). */
  nearestLa(lat: number, lng: number): string | null;
  /** An authority's crimes, addresses and months (crime_la). */
  la(code: string): { crimes: number; addresses: number; months: number } | undefined;
  /** An authority's crimes without a position. */
  unplaced(code: string): number;
  close(): void;
}

const NEAREST_LA_M = 1_000;

/** The nearest of the (authority, distance) pairs `each` gives, ties to the smaller code; none without an authority. */
function nearestOf(each: (visit: (la: string | null, d: number) => void) => void): string | null {
  let best = Infinity;
  let la: string | null = null;
  each((l, d) => {
    if (l && (d < best || (d === best && l < la!))) {
      best = d;
      la = l;
    }
  });
  return la;
}

const typeIx = new Map<string, number>(CRIME_TYPES.map((t, i) => [t, i]));

export async function loadCrimeSet(store: BuildStore): Promise<CrimeSet | undefined> {
  if (!store.tables.has('crime') || !store.tables.has('crime_la')) return undefined;
  const c = await store.columns('crime_all');
  const months = [...new Set(c.month)].sort();
  const monthIx = new Map(months.map((m, i) => [m, i]));
  const placed: number[] = [];
  const unplacedByLa = new Map<string, number>();
  for (let i = 0; i < c.month.length; i++) {
    if (c.lat[i] === null || c.lng[i] === null) {
      const la = c.la_code[i];
      if (la) unplacedByLa.set(la, (unplacedByLa.get(la) ?? 0) + 1);
    } else placed.push(i);
  }
  const month = Uint8Array.from(placed, (i) => monthIx.get(c.month[i]!)!);
  const type = Uint8Array.from(placed, (i) => typeIx.get(c.crime_type[i]!) ?? 255);
  const grid = new Points(Float64Array.from(placed, (i) => c.lat[i]!), Float64Array.from(placed, (i) => c.lng[i]!));
  const las = new Map<string, { crimes: number; addresses: number; months: number }>();
  const l = await store.columns('crime_la_all');
  for (let i = 0; i < l.la_code.length; i++) las.set(l.la_code[i]!, { crimes: l.crimes[i]!, addresses: l.addresses[i]!, months: l.months[i]! });
  const h = await store.columns('postcode_homes_all');
  const homes = new Points(h.lat, h.lng);
  const homeCount = Int32Array.from(h.address_count);
  const latestRelease = [...c.release].sort().at(-1) ?? months.at(-1) ?? '';
  return {
    months,
    latestRelease,
    within(lat, lng, r) {
      const out = { month: [] as number[], type: [] as number[] };
      grid.within(lat, lng, r, (i) => { out.month.push(month[i]!); out.type.push(type[i]!); });
      return out;
    },
    addressesWithin(lat, lng, r) {
      let n = 0;
      homes.within(lat, lng, r, (i) => { n += homeCount[i]!; });
      return n;
    },
    nearestLa: (lat, lng) => nearestOf((visit) => homes.within(lat, lng, NEAREST_LA_M, (i, d) => visit(h.la_code[i] ?? null, d))),
    la: (code) => las.get(code),
    unplaced: (code) => unplacedByLa.get(code) ?? 0,
    close: () => undefined,
  };
}

interface CrimePointRow { cell: number; lat: number; lng: number; month: string; crime_type: string }
interface CrimeHomeRow { cell: number; lat: number; lng: number; address_count: number; la_code: string | null }
interface CrimeAreaRow { la_code: string; crimes: number | null; addresses: number | null; months: number | null; unplaced: number }

/**
 * The crime set over the build's crime files, or null when its manifest lists none (a build
 * published before them). Files listed but missing, cut short or not theirs throw a
 * `LookupFileError`; so does a build listing some of the three but not all.
 */
export function openCrimeFiles(build: BuildInfo, pages: BlockCache): CrimeSet | null {
  const f = LOCATION_SET_FILES;
  const opened: KeyedRowsFile<unknown>[] = [];
  try {
    const points = openServingFile<CrimePointRow>(build, f.crimePoints, pages, 'crime points');
    if (points) opened.push(points);
    const homesFile = openServingFile<CrimeHomeRow>(build, f.crimeHomes, pages, 'crime homes');
    if (homesFile) opened.push(homesFile);
    const areas = openServingFile<CrimeAreaRow>(build, f.crimeAreas, pages, 'crime areas');
    if (areas) opened.push(areas);
    if (!points && !homesFile && !areas) return null;
    if (!points || !homesFile || !areas) throw new LookupFileError(`build ${build.id}: its manifest lists only some of the crime files (${[f.crimePoints, f.crimeHomes, f.crimeAreas].map((s) => s.artifact).join(', ')})`);
    const summary = points.meta.extra?.summary as { months?: unknown; latest_release?: unknown } | undefined;
    const months = JSON.parse(String(summary?.months ?? 'null')) as unknown;
    if (!Array.isArray(months) || !months.every((m) => typeof m === 'string')) throw new LookupFileError(`build ${build.id}: ${points.path} has no months in its summary`);
    const monthIx = new Map(months.map((m, i) => [m, i]));
    // Each crime's month and category read as their codes into the file's dictionaries, and
    // the codes mapped once here: a radius holds thousands of crimes, none decoded into a row.
    const monthOfCode = (points.dictionary('month') ?? []).map((m) => monthIx.get(m));
    const typeOfCode = (points.dictionary('crime_type') ?? []).map((t) => typeIx.get(t) ?? 255);
    const codeCols = ['month', 'crime_type'].map((c) => points.meta.columns.findIndex((k) => k.name === c));
    const countCol = [homesFile.meta.columns.findIndex((k) => k.name === 'address_count')];
    const nums = new Float64Array(2);
    const crimes = new CellPoints(points, f.crimePoints.cell.m);
    const homes = new CellPoints(homesFile, f.crimeHomes.cell.m);
    const latest = summary?.latest_release;
    return {
      months,
      latestRelease: typeof latest === 'string' ? latest : months.at(-1) ?? '',
      within(lat, lng, r) {
        const out = { month: [] as number[], type: [] as number[] };
        crimes.withinRaw(lat, lng, r, (page, at) => {
          points.numbersAt(page, at, codeCols, nums);
          const m = monthOfCode[nums[0]!];
          if (m === undefined) throw new BlockFileError(`${points.path}: a crime of month code ${nums[0]}, not a month among its summary's`);
          out.month.push(m);
          out.type.push(typeOfCode[nums[1]!] ?? 255);
        });
        return out;
      },
      addressesWithin(lat, lng, r) {
        let n = 0;
        homes.withinRaw(lat, lng, r, (page, at) => {
          homesFile.numbersAt(page, at, countCol, nums);
          if (!Number.isNaN(nums[0])) n += nums[0]!; // a postcode without a count adds none
        });
        return n;
      },
      nearestLa: (lat, lng) => nearestOf((visit) => homes.within(lat, lng, NEAREST_LA_M, (row, d) => visit(row.la_code, d))),
      la(code) {
        const a = areas.first(code);
        return a && a.crimes !== null ? { crimes: a.crimes, addresses: a.addresses ?? 0, months: a.months ?? 0 } : undefined;
      },
      unplaced: (code) => areas.first(code)?.unplaced ?? 0,
      close: () => { for (const o of opened) o.close(); },
    };
  } catch (e) {
    for (const o of opened) o.close();
    throw e;
  }
}
