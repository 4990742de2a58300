/**
 * Month arithmetic shared by the ETL and the service: a month as one integer (year × 12 +
 * month − 1), so "12 months back" is a subtraction and months sort as numbers.
 */

/** Month number of a `YYYY-MM` or `YYYY-MM-DD…` text. */
export function monthNo(ymOrDate: string): number {
  return Number(ymOrDate.slice(0, 4)) * 12 + Number(ymOrDate.slice(5, 7)) - 1;
}

/** `YYYY-MM` of a month number. */
export function monthText(m: number): string {
  return `${Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`;
}

/** `YYYY-MM-DD` of the last day of a `YYYY-MM` month: where a window ending in that month ends. */
export function lastDayOf(month: string): string {
  const next = monthNo(month) + 1;
  return new Date(Date.UTC(Math.floor(next / 12), next % 12, 0)).toISOString().slice(0, 10);
}
