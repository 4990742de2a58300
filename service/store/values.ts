/**
 * A store row's values (DuckDB's JS or JSON form) as the service holds them: SQL NULL (null or
 * undefined here) stays missing, null or NaN, never a 0 or an empty string that looks like data.
 */

export const textOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
export const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
/** For typed-array columns, where NaN marks the missing value. */
export const numOrNaN = (v: unknown): number => (v === null || v === undefined ? NaN : Number(v));
export const intOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Math.round(Number(v)));
