import type { BuildInfo } from '../build/source.ts';
import { pickIndexLevel, share, type IndexLevel } from '../domain/lookups.ts';
import { sourceAsOfEntry, type LookupTables } from './tables.ts';

/** Helpers the postcode, area, trends and flood endpoints share: counts and mixes of an area, its index chain. */

export type AreaLevel = 'postcode' | 'sector' | 'outcode' | 'district';
export type { Row } from './keyed.ts';
import type { Row } from './keyed.ts';

export const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
export const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export function areaCounts(t: LookupTables, level: AreaLevel, code: string): Row | undefined {
  return t.rows.counts.first(`${level}:${code}`);
}

/** The area's addresses by property type, tenure, construction age and EPC rating. */
export function areaMixes(t: LookupTables, level: AreaLevel, code: string): Record<string, { value: string; count: number; share: number }[]> {
  const rows = t.rows.mix.get(`${level}:${code}`);
  const total = new Map<string, number>();
  for (const r of rows) total.set(String(r.dim), (total.get(String(r.dim)) ?? 0) + Number(r.n));
  const out: Record<string, { value: string; count: number; share: number }[]> = { property_type: [], tenure: [], construction_age: [], epc_rating: [] };
  for (const r of rows) out[String(r.dim)]!.push({ value: String(r.value), count: Number(r.n), share: share(Number(r.n), total.get(String(r.dim))!)! });
  return out;
}

/** Shares of the located addresses in flood zones, conservation and Article 4 areas. */
export function designationShares(c: Row | undefined) {
  const located = Number(c?.located ?? 0);
  const of = (k: string) => share(Number(c?.[k] ?? 0), located);
  return { located_addresses: located, flood_zone_2: of('flood_zone_2'), flood_zone_3: of('flood_zone_3'), conservation_area: of('conservation_area'), article_4: of('article_4') };
}

const PARENT: Record<string, string> = { sector: 'outcode', outcode: 'district', district: 'country' };

/**
 * The area's growth row and its parents' (price_growth), most local first, following each
 * row's parent_code up to the country: the chain pickIndexLevel chooses from.
 */
export function growthChain(t: LookupTables, level: string, code: string): Row[] {
  const chain: Row[] = [];
  let at: [string, string] | undefined = [level, code];
  while (at) {
    const row = t.rows.growth.first(`${at[0]}:${at[1]}`);
    if (!row) break;
    chain.push(row);
    const parent: string | undefined = PARENT[at[0]];
    at = parent && row.parent_code != null ? [parent, String(row.parent_code)] : undefined;
  }
  return chain;
}

/** Which area's index answers for a chain (never silently wider: `widened` says so). */
export function chosenIndex(chain: Row[]) {
  if (chain.length === 0) return null;
  const levels: (IndexLevel & { row: Row })[] = chain.map((r) => ({ level: String(r.area_level), code: String(r.area_code), enough: r.enough_sales === true, row: r }));
  const pick = pickIndexLevel(levels);
  return { ...pick, row: (pick.used as IndexLevel & { row: Row }).row };
}

/** The as-of dates of those of `names` the build loaded (the sources a place's statistics come from). */
export function placeSources(build: BuildInfo, names: readonly string[]) {
  const loaded = new Set((Array.isArray(build.manifest.sources) ? (build.manifest.sources as { name?: unknown }[]) : []).map((s) => String(s.name)));
  return names.filter((n) => loaded.has(n)).map((name) => sourceAsOfEntry(build, name));
}

/** The latest as-of date of a place's sources (`placeSources`): the answer's as-of; `fallback` (the build date) when none is dated. */
export function latestAsOf(sources: readonly { as_of: string | null }[], fallback: string): string {
  const dated = sources.map((s) => s.as_of).filter((d): d is string => d !== null && /^\d{4}-\d{2}-\d{2}$/.test(d)).sort();
  return dated.at(-1) ?? fallback;
}

/**
 * The asked area and the wider ones around it, most local first: sector → outcode → local
 * authority. A sector's outcode is its first half; an outcode's authority is the one the place
 * lies in when known (a postcode or UPRN), else the one price_growth files it under.
 */
export function areaChain(t: LookupTables, level: 'sector' | 'outcode' | 'district', code: string, laCode: string | null): { level: string; code: string }[] {
  const chain = [{ level, code }];
  if (level === 'district') return chain;
  const outcode = level === 'sector' ? code.split(' ')[0]! : code;
  if (level === 'sector') chain.push({ level: 'outcode', code: outcode });
  const la = laCode ?? str(t.rows.growth.first(`outcode:${outcode}`)?.parent_code);
  if (la !== null) chain.push({ level: 'district', code: la });
  return chain;
}
