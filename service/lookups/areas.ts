import type { BuildInfo } from '../build/source.ts';
import { pickIndexLevel, share, type IndexLevel } from '../domain/lookups.ts';
import { MIN_LETS } from '../../schemas/tables/market.ts';
import { sourceAsOfEntry, type KeyedRow, type LookupTables } from './tables.ts';

/** Helpers the postcode, area, trends and flood endpoints share: counts and mixes of an area, its index chain. */

export type AreaLevel = 'postcode' | 'sector' | 'outcode' | 'district';
type CountsRow = KeyedRow<'lookup_area_counts'>;
type GrowthRow = KeyedRow<'lookup_growth'>;
type RentRow = KeyedRow<'lookup_area_rents'>;

export function areaCounts(t: LookupTables, level: AreaLevel, code: string): CountsRow | undefined {
  return t.rows.counts.first(`${level}:${code}`);
}

/** The area's addresses by property type, tenure, construction age and EPC rating. */
export function areaMixes(t: LookupTables, level: AreaLevel, code: string): Record<string, { value: string; count: number; share: number }[]> {
  const rows = t.rows.mix.get(`${level}:${code}`);
  const total = new Map<string, number>();
  for (const r of rows) total.set(r.dim, (total.get(r.dim) ?? 0) + r.n);
  const out: Record<string, { value: string; count: number; share: number }[]> = { property_type: [], tenure: [], construction_age: [], epc_rating: [] };
  for (const r of rows) out[r.dim]!.push({ value: r.value, count: r.n, share: share(r.n, total.get(r.dim)!)! });
  return out;
}

/** Shares of the located addresses in flood zones, conservation and Article 4 areas. */
export function designationShares(c: CountsRow | undefined) {
  const located = c?.located ?? 0;
  const of = (k: 'flood_zone_2' | 'flood_zone_3' | 'conservation_area' | 'article_4') => share(c?.[k] ?? 0, located);
  return { located_addresses: located, flood_zone_2: of('flood_zone_2'), flood_zone_3: of('flood_zone_3'), conservation_area: of('conservation_area'), article_4: of('article_4') };
}

const PARENT: Record<string, string> = { sector: 'outcode', outcode: 'district', district: 'country' };

/**
 * The area's growth row and its parents' (price_growth), most local first, following each
 * row's parent_code up to the country: the chain pickIndexLevel chooses from.
 */
export function growthChain(t: LookupTables, level: string, code: string): GrowthRow[] {
  const chain: GrowthRow[] = [];
  let at: [string, string] | undefined = [level, code];
  while (at) {
    const row = t.rows.growth.first(`${at[0]}:${at[1]}`);
    if (!row) break;
    chain.push(row);
    const parent: string | undefined = PARENT[at[0]];
    at = parent && row.parent_code !== null ? [parent, row.parent_code] : undefined;
  }
  return chain;
}

/** Which area's index answers for a chain (never silently wider: `widened` says so). */
export function chosenIndex(chain: GrowthRow[]) {
  if (chain.length === 0) return null;
  const levels: (IndexLevel & { row: GrowthRow })[] = chain.map((r) => ({ level: r.area_level, code: r.area_code, enough: r.enough_sales === true, row: r }));
  const pick = pickIndexLevel(levels);
  return { ...pick, row: (pick.used as IndexLevel & { row: GrowthRow }).row };
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
 * lies in when known (a postcode or UPRN), else the one price_growth files it under, else (no
 * sales index there: Scotland) the one most of its postcodes lie in.
 */
export function areaChain(t: LookupTables, level: 'sector' | 'outcode' | 'district', code: string, laCode: string | null): { level: string; code: string }[] {
  const chain = [{ level, code }];
  if (level === 'district') return chain;
  const outcode = level === 'sector' ? code.split(' ')[0]! : code;
  if (level === 'sector') chain.push({ level: 'outcode', code: outcode });
  const la = laCode ?? t.rows.growth.first(`outcode:${outcode}`)?.parent_code ?? t.outcodeDistricts.get(outcode) ?? null;
  if (la !== null) chain.push({ level: 'district', code: la });
  return chain;
}

/** Money to the penny, rates to 2 decimals; null stays null. */
export const r2 = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);

/** An area's prices: the 12-month median, £/sq ft, and growth by the index chosen along its chain (GET /areas/{code}). */
export function areaPrices(t: LookupTables, level: Exclude<AreaLevel, 'postcode'>, code: string) {
  // Empty where the build lacks the table (t.has): the fields then say "no evidence".
  const chain = growthChain(t, level, code);
  const sqft = t.rows.sqft.get(`${level}:${code}`);
  const own = chain[0];
  const index = chosenIndex(chain);
  return {
    median_price_12m: { value: own?.median_price_12m ?? null, sample_size: own?.sales_12m ?? 0 },
    price_per_sqft: { value: r2(sqft[0]?.median_gbp_sqft ?? null), sample_size: sqft[0]?.sales_count ?? 0 },
    growth: { '1y': index?.row.growth_1y ?? null, '5y': index?.row.growth_5y ?? null, '10y': index?.row.growth_10y ?? null },
    index: index && {
      level: index.used.level,
      code: index.used.code,
      as_of_month: index.row.as_of_month,
      widened: index.widened,
      enough_sales: index.enough,
      repeat_pairs: index.row.repeat_pairs,
    },
  };
}

/** An area's rents by bedrooms, with the gross yield where sales allow (GET /areas/{code}). */
export function areaRents(t: LookupTables, level: Exclude<AreaLevel, 'postcode'>, code: string) {
  return t.rows.rents.get(`${level}:${code}`).map((r) => ({
    bedrooms: r.bedrooms,
    median_pcm: r2(r.median_pcm),
    sample_size: r.sample_size,
    source: r.source,
    gross_yield_pct: r2(r.gross_yield_pct),
    yield_sales: r.yield_sales,
  }));
}

/** An area's short-term lets over the last 12 months, or null without listings (GET /areas/{code}). */
export function areaShortTermLets(t: LookupTables, level: Exclude<AreaLevel, 'postcode'>, code: string) {
  const s = t.rows.str.get(`${level === 'district' ? 'la' : level}:${code}`)[0];
  return s
    ? {
        scrape_date: s.scrape_date,
        listings: s.listings,
        active_listings: s.active_listings,
        from_month: s.from_month?.slice(0, 7) ?? null,
        to_month: s.to_month?.slice(0, 7) ?? null,
        adr: r2(s.adr),
        occupancy: s.occupancy === null ? null : Math.round(s.occupancy * 1000) / 1000,
        // An estimate (listings' reviews scaled by stay length and review rate): whole nights.
        booked_nights: s.booked_nights === null ? null : Math.round(s.booked_nights),
      }
    : null;
}

const pence = (v: number) => Math.round(v * 100) / 100;

/**
 * Long-term rents by bedrooms with each thin group (fewer than MIN_LETS lets) of a sector or
 * outcode given the rents_area mart's shrunk figures, as /yields and /areas show them; a radius
 * or a property type has no wider figure of the same selection, so its own figures stand, marked thin.
 */
export function shrinkThinGroups<G extends { bedrooms: number; sample_size: number }>(
  groups: readonly G[], t: LookupTables | undefined, area: { level: string; code?: string }, kind: string | null,
) {
  // A shrunk row names the area it was shrunk toward (rents_area's contract rule); one that
  // did not would be no figure to show as shrunk, so the group's own thin figures stand.
  const shrunk = (b: number) => (area.level === 'radius' || kind !== null || !t?.has.has('area_stats') ? undefined
    : t.rows.rents.get(`${area.level}:${area.code}`).find((r): r is RentRow & { prior_level: string } => r.bedrooms === b && r.source === 'shrunk' && r.prior_level !== null));
  return groups.map((g) => {
    if (g.sample_size >= MIN_LETS) return { ...g, source: 'evidence' as const, prior_level: null };
    const m = shrunk(g.bedrooms);
    if (!m) return { ...g, source: 'thin' as const, prior_level: null };
    return { ...g, median_pcm: pence(m.median_pcm), mean_pcm: pence(m.mean_pcm), p25_pcm: pence(m.p25_pcm), p75_pcm: pence(m.p75_pcm), source: 'shrunk' as const, prior_level: m.prior_level };
  });
}
