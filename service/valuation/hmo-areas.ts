import type { BuildInfo } from '../middleware/data.ts';
import type { HmoYieldFigure, RoomRentFigure } from '../domain/hmo.ts';
import { PerBuild } from '../store/per-build.ts';
import { buildStores } from '../store/stores.ts';

/** A build's area room rents and HMO yields (a few hundred rows), held in memory. */
export interface HmoAreas {
  roomRent(sector: string | null, outcode: string | null, district: string | null): RoomRentFigure | undefined;
  hmoYield(sector: string | null, outcode: string | null, district: string | null): HmoYieldFigure | undefined;
}

const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export async function loadHmoAreas(build: BuildInfo): Promise<HmoAreas> {
  const store = await buildStores.get(build);
  const rents = new Map<string, { median_pcm: number; source: string }>();
  for (const r of await store.query('hmo_room_rents')) rents.set(`${r.area_level}:${r.area_code}`, { median_pcm: Number(r.median_pcm), source: String(r.source) });
  const yields = new Map<string, Omit<HmoYieldFigure, 'level'>>();
  const districtYields: Omit<HmoYieldFigure, 'level'>[] = [];
  for (const r of await store.query('hmo_yields')) {
    const y = { gross_yield_pct: Number(r.gross_yield_pct), p25_yield_pct: Number(r.p25_yield_pct), p75_yield_pct: Number(r.p75_yield_pct) };
    yields.set(`${r.area_level}:${r.area_code}`, y);
    if (r.area_level === 'district') districtYields.push(y);
  }
  // Areas with no sales of their own (Scotland is not in Price Paid) borrow the median district.
  const allAreas: HmoYieldFigure | undefined = districtYields.length
    ? {
        level: 'all_areas',
        gross_yield_pct: median(districtYields.map((y) => y.gross_yield_pct)),
        p25_yield_pct: median(districtYields.map((y) => y.p25_yield_pct)),
        p75_yield_pct: median(districtYields.map((y) => y.p75_yield_pct)),
      }
    : undefined;
  const levels = (sector: string | null, outcode: string | null, district: string | null) =>
    [['sector', sector], ['outcode', outcode], ['district', district]] as const;
  return {
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

/** Per build, loaded on first use (off later requests' path) and swapped with the build. */
export const hmoAreas = new PerBuild<HmoAreas>(loadHmoAreas);

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
