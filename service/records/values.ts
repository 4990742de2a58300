/**
 * A property record's values (lib/files/record-file-format.ts: a column the record lacks is
 * undefined, a NULL null) as the service holds them: missing stays missing, null or NaN, never
 * a 0 or an empty string that looks like data. Store rows need none of these: they arrive
 * decoded by their query's declaration (service/store/decode.ts).
 */

export const textOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
export const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
/** For typed-array columns, where NaN marks the missing value. */
export const numOrNaN = (v: unknown): number => (v === null || v === undefined ? NaN : Number(v));
export const intOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Math.round(Number(v)));
