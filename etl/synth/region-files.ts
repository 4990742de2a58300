/**
 * The generator's shared state (Ctx) and the region-wide files written from it once every
 * home is done: the UK HPI full file, ONS rents by local authority, the planning layers.
 * Split from generate.ts, which writes the per-home files.
 */
import { ONS_RENTS_HEADER } from '../../schemas/sources/rents.ts';
import { UKHPI_FULL_HEADER } from '../../schemas/sources/ukhpi.ts';
import type { AreaIndex } from './area-index.ts';
import type { CrimeWriter } from './crime.ts';
import type { HmoRegisterWriter } from './hmo.ts';
import type { HpiAccumulator } from './hpi.ts';
import type { ListingsWriter } from './listings.ts';
import { csvRow, type OutFile } from './out.ts';
import { TOWNS } from './params.ts';
import { featureCollection, type PlanningShape } from './planning.ts';
import type { Planter } from './planted.ts';
import type { Group } from './lanes.ts';
import type { District } from './region.ts';
import type { RentStats } from './rents.ts';
import type { SchoolsWriter } from './schools.ts';
import type { Ids } from './str.ts';
import { ymStr, type DayIdx, type MonthIdx } from './time.ts';

export interface Ctx {
  seed: number;
  today: MonthIdx;
  todayDay: DayIdx;
  scrape: DayIdx;
  index: AreaIndex;
  planning: PlanningShape[];
  f: Record<string, OutFile>;
  t: Record<string, OutFile>;
  /** Whether this lane writes a group's files (lanes.ts); work only other lanes need is skipped. */
  own: (g: Group) => boolean;
  planter: Planter;
  hpi: HpiAccumulator;
  onsStats: Map<string, RentStats>;
  ids: Ids;
  evidenceSeq: number;
  updates: { c: number; d: number };
  crime: CrimeWriter;
  schools: SchoolsWriter;
  market: ListingsWriter;
  hmo: HmoRegisterWriter;
}

export function writeHpi(ctx: Ctx, plan: District[]): void {
  const file = ctx.f.hpi!;
  file.raw(UKHPI_FULL_HEADER.join(',') + '\n');
  // The full file lags: the latest month published is two months before today.
  for (const row of ctx.hpi.rows(plan, ctx.index, ctx.today - 2)) file.row(row);
  const bad = UKHPI_FULL_HEADER.map((h) => (h === 'Date' ? '01/01/2020' : h === 'RegionName' ? 'Planted' : h === 'AreaCode' ? 'XYZ' : h === 'AveragePrice' ? '100000' : h === 'Index' ? '50.0' : ''));
  ctx.planter.plant(file, 'invalid:area_code', bad.join(',') + '\n');
}

const ONS_ORDER = ['Room', 'Studio', 'One Bedroom', 'Two Bedrooms', 'Three Bedrooms', 'Four or more Bedrooms', 'All categories'];

function thousands(x: number): string {
  return String(Math.round(x)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** ONS private rental market statistics: a title row, the header, then LA × category rows. */
export function writeOnsRents(ctx: Ctx): void {
  const f = ctx.f.onsRents!;
  f.raw(`Table 2.7: Summary of monthly rents recorded in the 12 months to ${ymStr(ctx.today)} by bedroom category for each local authority (synthetic)\n\n`);
  f.raw(ONS_RENTS_HEADER.join(',') + '\n');
  for (const town of TOWNS) {
    for (const cat of ONS_ORDER) {
      const s = ctx.onsStats.get(`${town.laCode}|${cat}`);
      if (!s || s.count < 5) continue; // ONS suppresses small counts; we leave the row out
      f.row(csvRow(['', town.laCode, town.laName, cat, s.count, thousands(s.sum / s.count), thousands(s.quantile(0.25)), thousands(s.quantile(0.5)), thousands(s.quantile(0.75))]));
    }
  }
  ctx.planter.plant(f, 'invalid:category', csvRow(['', 'E06000023', 'City of Bristol', 'Five Bedrooms', '10', '900', '800', '900', '1,000']));
}

export function planningFile(ctx: Pick<Ctx, 'planning' | 'planter'>, rel: string, dataset: PlanningShape['dataset']): { text: string; rows: number } {
  const doc = JSON.parse(featureCollection(ctx.planning, dataset)) as { features: unknown[] };
  // One planted feature without geometry (the reader's `geometry:missing`).
  doc.features.push({ geometry: null, type: 'Feature', properties: { entity: 99_000_001, dataset, reference: 'planted', name: 'Planted feature without geometry' } });
  ctx.planter.expected[rel] = { 'geometry:missing': 1 };
  return { text: JSON.stringify(doc), rows: doc.features.length };
}
