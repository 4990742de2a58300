/**
 * The build-wide rent growth and as-of of the whole-property lets, computed by the ETL into the
 * rent lets file's meta (lib/files/evidence-files.ts) and by the service for a build without
 * that file (service/valuers/evidence.ts): one function, over the rows of one query
 * (lookup-sql/rents_lets_all.sql, in its order), so both give the same double.
 */

/**
 * Log rent growth per day: the pooled within-group least-squares slope of log rent on let
 * date within groups of like lets (the same sector, bedroom group and kind), so a change in
 * where or what was let over the window is not read as growth. 0 without two dates in a group.
 */
export function rentGrowthPerDay(lets: readonly { group: string; rent_pcm: number; day: number }[]): number {
  const sums = new Map<string, { n: number; x: number; y: number }>();
  for (const l of lets) {
    const g = sums.get(l.group) ?? { n: 0, x: 0, y: 0 };
    g.n++; g.x += l.day; g.y += Math.log(l.rent_pcm);
    sums.set(l.group, g);
  }
  let sxy = 0, sxx = 0;
  for (const l of lets) {
    const g = sums.get(l.group)!;
    const dx = l.day - g.x / g.n;
    sxy += dx * (Math.log(l.rent_pcm) - g.y / g.n);
    sxx += dx * dx;
  }
  return sxx > 0 ? sxy / sxx : 0;
}

/** A let date as days since 1970-01-01 (the recency weights' unit). */
export const letDay = (date: string): number => Math.round(Date.parse(date) / 86_400_000);

/** One let as rents_lets_all gives it (the columns the growth and as-of read). */
export interface GrowthLet {
  sector: string | null;
  property_type: string;
  bedrooms: number;
  rent_pcm: number;
  let_date: string;
}

/**
 * The latest let date (the date rental valuations are made as of; '' without lets) and the
 * log growth per month (rentGrowthPerDay × 30.44), over lets in rents_lets_all's order.
 */
export function rentLetsSummary(lets: Iterable<GrowthLet>): { asOf: string; growthPerMonth: number } {
  let asOf = '';
  const rows: { group: string; rent_pcm: number; day: number }[] = [];
  for (const l of lets) {
    if (l.let_date > asOf) asOf = l.let_date;
    const flat = l.property_type === 'flat' ? 1 : 0;
    rows.push({ group: `${l.sector}|${Math.min(4, Math.min(255, l.bedrooms))}|${flat}`, rent_pcm: l.rent_pcm, day: letDay(l.let_date) });
  }
  return { asOf, growthPerMonth: 30.44 * rentGrowthPerDay(rows) };
}
