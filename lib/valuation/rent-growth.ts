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
export function rentGrowthPerDay(lets: Iterable<{ group: string; rent_pcm: number; day: number }>): number {
  const growth = new PooledSlope();
  for (const l of lets) growth.add(l.group, l.day, Math.log(l.rent_pcm));
  return growth.slope();
}

/**
 * The pooled within-group slope of y on x, a row at a time: each group's co-moments updated
 * as each row comes (Welford's), so a national build's millions of lets are never held (the
 * two-pass form held every let twice: 8.4M at 30M). Groups are summed in the order first seen.
 */
export class PooledSlope {
  private readonly groups = new Map<string, { n: number; x: number; y: number; sxy: number; sxx: number }>();

  add(group: string, x: number, y: number): void {
    let g = this.groups.get(group);
    if (!g) this.groups.set(group, (g = { n: 0, x: 0, y: 0, sxy: 0, sxx: 0 }));
    g.n++;
    const dx = x - g.x;
    g.x += dx / g.n;
    g.y += (y - g.y) / g.n;
    g.sxy += dx * (y - g.y);
    g.sxx += dx * (x - g.x);
  }

  /** The slope; 0 when no group has two distinct x. */
  slope(): number {
    let sxy = 0, sxx = 0;
    for (const g of this.groups.values()) {
      sxy += g.sxy;
      sxx += g.sxx;
    }
    return sxx > 0 ? sxy / sxx : 0;
  }
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
  const summary = new RentLetsSummary();
  for (const l of lets) summary.add(l);
  return summary.result();
}

/** rentLetsSummary a let at a time, for a reader that streams the lets. */
export class RentLetsSummary {
  private asOf = '';
  private readonly growth = new PooledSlope();

  add(l: GrowthLet): void {
    if (l.let_date > this.asOf) this.asOf = l.let_date;
    const flat = l.property_type === 'flat' ? 1 : 0;
    this.growth.add(`${l.sector}|${Math.min(4, Math.min(255, l.bedrooms))}|${flat}`, letDay(l.let_date), Math.log(l.rent_pcm));
  }

  result(): { asOf: string; growthPerMonth: number } {
    return { asOf: this.asOf, growthPerMonth: 30.44 * this.growth.slope() };
  }
}
