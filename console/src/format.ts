const gbp = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP', maximumFractionDigits: 0 });
const num = new Intl.NumberFormat('en-GB');

export const money = (v: number | null | undefined): string | null => (v === null || v === undefined ? null : gbp.format(v));
export const count = (v: number | null | undefined): string | null => (v === null || v === undefined ? null : num.format(v));
export const pct = (v: number | null | undefined, digits = 1): string | null => (v === null || v === undefined ? null : `${v.toFixed(digits)}%`);
/** A growth given as a fraction (0.0113) as a percentage. */
export const growth = (v: number | null | undefined): string | null => (v === null || v === undefined ? null : `${(v * 100).toFixed(1)}%`);
export const credits = (n: number): string => `${num.format(n)} credit${n === 1 ? '' : 's'}`;
/** "2024-08" or "2024-08-31" to seconds since the epoch, for the charts' time axes. */
export const toEpoch = (d: string): number => Date.parse(d.length === 7 ? `${d}-15T00:00:00Z` : `${d}T00:00:00Z`) / 1000;
