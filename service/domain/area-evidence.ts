/**
 * Which area answers for an area statistic when the asked area's evidence is thin: the most
 * local area whose figure rests on enough evidence of its own, walking out from the asked
 * area (sector → outcode → local authority). Never silently: the answer says which area and
 * why. Pure.
 */

export interface AreaFigure<R> {
  level: string;
  code: string;
  /** The area's row, or undefined when the build has no figure for it. */
  row: R | undefined;
}

export interface ChosenFigure<R> {
  level: string;
  code: string;
  row: R;
  /** True when the figure is a wider area's than the one asked for. */
  widened: boolean;
  /** Whether the chosen figure rests on enough evidence (false: the widest area known is thin too). */
  enough: boolean;
}

/**
 * The first area in `chain` (most local first) whose row is `enough`; when none is, the most
 * local area that has a row at all, marked not enough. Undefined when no area has a row.
 */
export function chooseArea<R>(chain: readonly AreaFigure<R>[], enough: (row: R) => boolean): ChosenFigure<R> | undefined {
  const asked = chain[0];
  if (!asked) return undefined;
  const pick = (a: AreaFigure<R>, ok: boolean): ChosenFigure<R> =>
    ({ level: a.level, code: a.code, row: a.row!, widened: a !== asked, enough: ok });
  const good = chain.find((a) => a.row !== undefined && enough(a.row));
  if (good) return pick(good, true);
  const any = chain.find((a) => a.row !== undefined);
  return any ? pick(any, false) : undefined;
}

/**
 * The dates of lets agreed in the 24 months to `end` (YYYY-MM-DD: the last day of the rental
 * evidence's latest month, where its windows end), as mart_rent_lets selects them.
 */
export function letsPeriod(end: string): { from: string; to: string } {
  const d = new Date(`${end}T00:00:00Z`);
  const from = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 24, d.getUTCDate() + 1));
  return { from: from.toISOString().slice(0, 10), to: end };
}
