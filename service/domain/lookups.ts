/**
 * Pure rules of the lookup endpoints (sales and certificate history, postcodes, areas, price
 * trends, comparables, flood risk): codes to names, price today, certificate expiry, growth,
 * the index level used, paging and similarity. No I/O.
 */


/** A price brought to today by a log growth; null without one. Whole pounds. */
export function priceToday(price: number, logGrowth: number | null): number | null {
  return logGrowth === null || !Number.isFinite(logGrowth) ? null : Math.round(price * Math.exp(logGrowth));
}

/** An energy certificate is valid for 10 years from lodgement. */
export function certificateExpiry(lodged: string): string {
  return `${Number(lodged.slice(0, 4)) + 10}${lodged.slice(4, 10)}`;
}

export const SQFT_PER_M2 = 10.7639;

/** Share `n / of` rounded to 4 places; null when there is nothing to divide by. */
export function share(n: number, of: number): number | null {
  return of > 0 ? Math.round((n / of) * 10_000) / 10_000 : null;
}

/**
 * Index growth over `years` to the last month of a monthly series (oldest first): a fraction,
 * null when the series is shorter or a level is missing.
 */
export function growthOver(index: readonly (number | null)[], years: number): number | null {
  const last = index.length - 1;
  const from = last - years * 12;
  if (from < 0) return null;
  const a = index[from];
  const b = index[last];
  if (a == null || b == null || !(a > 0)) return null;
  return Math.round((b / a - 1) * 10_000) / 10_000;
}

export interface IndexLevel {
  level: string;
  code: string;
  /** Whether the area has enough sales of its own at its last month (docs/marts.md). */
  enough: boolean;
}

/**
 * The area whose index answers: the asked one when it has enough sales at the last month,
 * else the first wider area on its parent chain that has, else the widest known (which
 * still lacks them, and the answer says so). Never silently: the caller reports which level.
 */
export function pickIndexLevel(chain: readonly IndexLevel[]): { used: IndexLevel; widened: boolean; enough: boolean } {
  if (chain.length === 0) throw new Error('pickIndexLevel: empty chain');
  const found = chain.find((c) => c.enough);
  const used = found ?? chain[chain.length - 1]!;
  return { used, widened: used !== chain[0], enough: found !== undefined };
}

/** Page `page` (from 1) of `total` items `perPage` at a time: the slice, or an error text when past the end. */
export function pageSlice(total: number, page: number, perPage: number): { from: number; to: number; totalPages: number } | string {
  const totalPages = Math.ceil(total / perPage);
  if (page > Math.max(1, totalPages)) return `page ${page} is past the last page (${totalPages} page${totalPages === 1 ? '' : 's'} of ${perPage})`;
  const from = (page - 1) * perPage;
  return { from, to: Math.min(total, from + perPage), totalPages };
}

export interface CompSubject {
  type: string | null;
  bedrooms: number | null;
  floorAreaSqft: number | null;
}

/**
 * Similarity of a sold home to the subject, 0–1 (1 = same type, bedrooms and floor area, next
 * door, sold this month): 1 − weighted penalties for a different type (0.3), each bedroom of
 * difference (0.1, up to 0.2), floor area (0.2 × |ln ratio| ÷ ln 1.5, up to 0.2), distance
 * (0.15 × d ÷ radius) and age of the sale (0.15 × months ÷ 60, up to 0.15). An unknown
 * attribute on either side costs half its weight.
 */
export function similarity(s: CompSubject, c: CompSubject, distanceM: number, radiusM: number, ageMonths: number): number {
  let p = 0;
  p += s.type === null || c.type === null ? 0.15 : s.type === c.type ? 0 : 0.3;
  p += s.bedrooms === null || c.bedrooms === null ? 0.1 : Math.min(0.2, 0.1 * Math.abs(s.bedrooms - c.bedrooms));
  p += s.floorAreaSqft === null || c.floorAreaSqft === null ? 0.1 : Math.min(0.2, (0.2 * Math.abs(Math.log(c.floorAreaSqft / s.floorAreaSqft))) / Math.log(1.5));
  p += 0.15 * Math.min(1, distanceM / radiusM);
  p += 0.15 * Math.min(1, Math.max(0, ageMonths) / 60);
  return Math.round((1 - p) * 1000) / 1000;
}
