/**
 * Calendar arithmetic on plain integers, UTC only: months are `year * 12 + (month - 1)`,
 * days are days since 1970-01-01. Nothing here reads the clock.
 */

export type MonthIdx = number;
export type DayIdx = number;

const MS_PER_DAY = 86_400_000;

/** `2025-09` or `2025-09-30` → month index. */
export function monthOf(s: string): MonthIdx {
  const m = /^(\d{4})-(\d{2})/.exec(s);
  if (!m) throw new Error(`not a date: ${s}`);
  return Number(m[1]) * 12 + Number(m[2]) - 1;
}

export function monthYear(m: MonthIdx): number {
  return Math.floor(m / 12);
}

/** Calendar month 1..12. */
export function monthNum(m: MonthIdx): number {
  return (m % 12) + 1;
}

/** Month index → `YYYY-MM`. */
export function ymStr(m: MonthIdx): string {
  return `${monthYear(m)}-${String(monthNum(m)).padStart(2, '0')}`;
}

/** `YYYY-MM-DD` → day index. */
export function dayOf(iso: string): DayIdx {
  const t = Date.parse(`${iso.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(t)) throw new Error(`not a date: ${iso}`);
  return Math.round(t / MS_PER_DAY);
}

/** Day index → `YYYY-MM-DD` (Hinnant's civil-from-days: integer arithmetic, no Date object in the hot path). */
export function isoDay(d: DayIdx): string {
  const z = d + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${year}-${month < 10 ? '0' : ''}${month}-${day < 10 ? '0' : ''}${day}`;
}

/** First day of a month as a day index. */
export function firstDay(m: MonthIdx): DayIdx {
  return Math.round(Date.UTC(monthYear(m), monthNum(m) - 1, 1) / MS_PER_DAY);
}

export function daysInMonth(m: MonthIdx): number {
  return firstDay(m + 1) - firstDay(m);
}

/** Month index of a day index. */
export function monthOfDay(d: DayIdx): MonthIdx {
  const dt = new Date(d * MS_PER_DAY);
  return dt.getUTCFullYear() * 12 + dt.getUTCMonth();
}

/**
 * The generator's "today" for a region whose data end in `endMonth` (YYYY-MM): the last day of
 * the month after it. Sales, lets and certificates run to the month before today's, so Price
 * Paid's latest month is `endMonth` (police data, published later, end a month earlier).
 */
export function todayForEndMonth(endMonth: string): string {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(endMonth)) throw new Error(`end month must be YYYY-MM, got ${endMonth}`);
  return isoDay(firstDay(monthOf(endMonth) + 2) - 1);
}

/** YYYY-MM of the last complete month before `now` (UTC): the month before now's. */
export function lastCompleteMonth(now: Date): string {
  return ymStr(now.getUTCFullYear() * 12 + now.getUTCMonth() - 1);
}

/** `YYYYMM` as ONSPD writes dates of introduction and termination. */
export function yyyymm(m: MonthIdx): string {
  return `${monthYear(m)}${String(monthNum(m)).padStart(2, '0')}`;
}
