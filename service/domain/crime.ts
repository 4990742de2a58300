import { CRIME_TYPES } from '../../schemas/sources/police-crime.ts';

/**
 * Counts of the crimes a radius found, by category and month (pure: indexes in, counts out).
 * `hits` are indexes into `month` and `type` (the crime set's placed crimes).
 */
export function crimeCounts(hits: readonly number[], month: ArrayLike<number>, type: ArrayLike<number>, months: readonly string[]) {
  const byType = new Array<number>(CRIME_TYPES.length).fill(0);
  const byMonth = months.map(() => new Array<number>(CRIME_TYPES.length).fill(0));
  for (const i of hits) {
    const t = type[i]!;
    if (t >= CRIME_TYPES.length) continue;
    byType[t]!++;
    byMonth[month[i]!]![t]!++;
  }
  const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
  return {
    total: sum(byType),
    by_category: CRIME_TYPES.map((category, t) => ({ category, count: byType[t]! })),
    by_month: months.map((m, k) => ({
      month: m,
      total: sum(byMonth[k]!),
      by_category: Object.fromEntries(CRIME_TYPES.map((c, t) => [c, byMonth[k]![t]!])),
    })),
  };
}

/** Crimes per 1,000 addresses, to one decimal; null when there are no addresses to divide by. */
export function per1000(crimes: number, addresses: number): number | null {
  return addresses > 0 ? Math.round((10_000 * crimes) / addresses) / 10 : null;
}
