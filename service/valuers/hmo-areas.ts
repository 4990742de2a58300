import { PROPERTY_RECORD_COLUMNS } from '../../lib/files/record-file-format.ts';
import { missingColumns, pickColumns, recordView, type RecordView } from '../../lib/files/record-view.ts';
import type { PropertyRecords } from '../records/property-records.ts';
import { spacePerRoom, valueHmo, type HmoOptions, type HmoValuation, type HmoYieldFigure, type RoomRentFigure, type SpacePerRoomFigure } from '../domain/hmo.ts';
import { median } from '../domain/stats.ts';
import type { BuildInfo } from '../build/source.ts';
import type { BuildStore } from '../store/store.ts';

/** A build's area room rents and HMO yields (a few hundred rows) and its space per room, held in memory. */
export interface HmoAreas {
  district(sector: string): string | null;
  /** The gross floor area one letting room needs (the build's licensed HMOs, else the national standards). */
  readonly spacePerRoom: SpacePerRoomFigure;
  roomRent(sector: string | null, outcode: string | null, district: string | null): RoomRentFigure | undefined;
  hmoYield(sector: string | null, outcode: string | null, district: string | null): HmoYieldFigure | undefined;
}

export async function loadHmoAreas(store: BuildStore): Promise<HmoAreas> {
  const rents = new Map<string, { median_pcm: number; source: string }>();
  for (const r of await store.rows('hmo_room_rents')) rents.set(`${r.area_level}:${r.area_code}`, { median_pcm: r.median_pcm, source: r.source });
  const yields = new Map<string, Omit<HmoYieldFigure, 'level'>>();
  const districtYields: Omit<HmoYieldFigure, 'level'>[] = [];
  for (const r of await store.rows('hmo_yields')) {
    // A level without all three figures has no yield: hmoYield asks the next wider level (a 0
    // would value at rent ÷ 0). The mart gives all three wherever it has a row (its prices are
    // never NULL), so this guards a build that breaks that, not a case it makes.
    const { gross_yield_pct, p25_yield_pct, p75_yield_pct } = r;
    if (gross_yield_pct === null || p25_yield_pct === null || p75_yield_pct === null) continue;
    const y = { gross_yield_pct, p25_yield_pct, p75_yield_pct };
    yields.set(`${r.area_level}:${r.area_code}`, y);
    if (r.area_level === 'district') districtYields.push(y);
  }
  const districts = new Map<string, string>();
  for (const r of await store.rows('hmo_sector_districts')) districts.set(r.sector, r.la_code);
  // English and Welsh areas with too few sales of their own borrow the median district (a Scottish
  // home never gets here: the route answers it not_covered, Price Paid not reaching Scotland).
  const allAreas: HmoYieldFigure | undefined = districtYields.length
    ? {
        level: 'all_areas',
        gross_yield_pct: median(districtYields.map((y) => y.gross_yield_pct)),
        p25_yield_pct: median(districtYields.map((y) => y.p25_yield_pct)),
        p75_yield_pct: median(districtYields.map((y) => y.p75_yield_pct)),
      }
    : undefined;
  // A build without the licence register measures nothing: the national standards' figure.
  const [space] = store.tables.has('hmo_licences') ? await store.rows('hmo_space_per_room') : [];
  const spacePerRoomFigure = spacePerRoom({ sample_size: space?.sample_size ?? 0, p10_sqft: space?.p10_sqft ?? null, median_sqft: space?.median_sqft ?? null });
  const levels = (sector: string | null, outcode: string | null, district: string | null) =>
    [['sector', sector], ['outcode', outcode], ['district', district]] as const;
  return {
    district: (sector) => districts.get(sector) ?? null,
    spacePerRoom: spacePerRoomFigure,
    roomRent(sector, outcode, district) {
      // The most local area with enough lets of its own; else the district's figure (ONS or thin).
      for (const [level, code] of levels(sector, outcode, district)) {
        const r = code === null ? undefined : rents.get(`${level}:${code}`);
        if (r?.source === 'evidence') return { level, ...r };
      }
      const d = district === null ? undefined : rents.get(`district:${district}`);
      return d ? { level: 'district', ...d } : undefined;
    },
    hmoYield(sector, outcode, district) {
      for (const [level, code] of levels(sector, outcode, district)) {
        const y = code === null ? undefined : yields.get(`${level}:${code}`);
        if (y) return { level, ...y };
      }
      return allAreas;
    },
  };
}

/**
 * The build's data date for a valuation: the latest as-of date of the sources it rests on
 * (Price Paid and rental evidence), else the build's creation date.
 */
export function dataDate(build: BuildInfo, kinds: readonly string[] = ['price_paid', 'rental_evidence']): string {
  const created = String(build.manifest.created_at ?? '').slice(0, 10);
  const sources = Array.isArray(build.manifest.sources) ? (build.manifest.sources as { name?: string; as_of?: string | null }[]) : [];
  let best = '';
  for (const s of sources) {
    if (s.name && kinds.includes(s.name) && typeof s.as_of === 'string' && s.as_of > best && (!created || s.as_of <= created)) best = s.as_of;
  }
  return best || created;
}

/** The record file columns the HMO valuation reads. */
const RECORD_COLUMNS = pickColumns(PROPERTY_RECORD_COLUMNS, ['postcode', 'property_type', 'bedrooms', 'floor_area_sqft', 'article_4']);

/**
 * Values one UPRN as an HMO from one build's property records (the record file the
 * property endpoint serves: bedrooms, floor area, type, postcode, the Article 4 flag) and area figures,
 * opened together so a request never mixes two builds. No SQL on the request path.
 */
export class HmoValuer {
  constructor(
    private readonly records: RecordView<typeof RECORD_COLUMNS>,
    readonly areas: HmoAreas,
    readonly asOf: string,
  ) {}

  /** The valuation, or why there is none (an unknown UPRN, or an area without figures). */
  value(uprn: number, o: HmoOptions): HmoValuationResult {
    const p = this.records.get(uprn);
    if (!p) return { kind: 'not_found', reason: `No property with UPRN ${uprn}.` };
    const postcode = p.postcode ?? '';
    const outcode = postcode.includes(' ') ? postcode.split(' ')[0]! : null;
    const sector = postcode.length > 2 && outcode ? postcode.slice(0, -2) : null;
    const district = sector ? this.areas.district(sector) : null;
    const room = this.areas.roomRent(sector, outcode, district);
    if (!room) return { kind: 'not_found', reason: `No room rents are recorded for the area of UPRN ${uprn} (${postcode}), so it cannot be valued as an HMO.` };
    const yld = this.areas.hmoYield(sector, outcode, district);
    if (!yld) return { kind: 'not_found', reason: `No HMO yield can be measured for the area of UPRN ${uprn} (no recent sales of 3+ bedroom houses in this build).` };
    const valuation = valueHmo(
      {
        uprn: String(uprn),
        bedrooms: p.bedrooms,
        floor_area_sqft: p.floor_area_sqft,
        space_per_room: this.areas.spacePerRoom,
        kind: p.property_type === 'Flat' ? 'flat' : 'house',
        article_4: p.article_4,
        room_rent: room,
        hmo_yield: yld,
        as_of: this.asOf,
      },
      o,
    );
    return { kind: 'valued', valuation };
  }
}

export type HmoValuationResult = { kind: 'valued'; valuation: HmoValuation } | { kind: 'not_found'; reason: string };

/** Undefined when the build cannot serve HMO valuations (no HMO yields, or a record file without the columns). */
export async function openHmoValuer(build: BuildInfo, store: BuildStore, records: () => Promise<PropertyRecords>): Promise<HmoValuer | undefined> {
  if (!store.tables.has('hmo_yields_area') || !store.tables.has('rents_rooms')) return undefined;
  const [file, areas] = await Promise.all([records().catch(() => undefined), loadHmoAreas(store)]);
  if (!file) return undefined;
  if (missingColumns(file.file, RECORD_COLUMNS).length > 0) return undefined;
  return new HmoValuer(recordView(file.file, RECORD_COLUMNS), areas, dataDate(build));
}
