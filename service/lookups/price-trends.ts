import { monthNo, monthText } from '../../schemas/months.ts';
import { PPD_CODE_OF, type HomeType } from '../../schemas/property-types.ts';
import { growthOver } from '../domain/lookups.ts';
import type { chosenIndex } from './areas.ts';
import type { LookupTables } from './tables.ts';

type Chosen = NonNullable<ReturnType<typeof chosenIndex>>;

/**
 * GET /prices/trends' series for the area `level:code`: the last `months` months of the
 * chosen index (`chosen`, maybe a wider area's) with the area's own median prices and sales
 * (of one property type when given), growth over the whole index and the sales of 12 months.
 */
export function priceTrend(t: LookupTables, level: string, code: string, chosen: Chosen, months: number, type: HomeType | null) {
  const series = t.rows.index.get(`${chosen.used.level}:${chosen.used.code}`);
  const own = t.rows.index.get(`${level}:${code}`);
  const last = monthNo(chosen.row.as_of_month);
  const first = last - months + 1;
  const indexAt = new Map(series.map((r) => [r.month, r.index]));
  let counts = new Map(own.map((r) => [r.month, { median_price: r.median_price, sales: r.sales_count ?? 0 }]));
  if (type !== null) {
    const rows = t.typeMonths!.get(`${level}:${code}:${PPD_CODE_OF[type]}`);
    counts = new Map(rows.map((r) => [r.month, { median_price: r.median_price as number | null, sales: r.sales }]));
  }
  const shown = [];
  for (let m = first; m <= last; m++) {
    const k = monthText(m);
    const c = counts.get(k);
    shown.push({ month: k, index: indexAt.get(k) ?? null, median_price: c?.median_price ?? null, sales: c?.sales ?? 0 });
  }
  // Growth over the whole index, whatever the months shown.
  const full: (number | null)[] = [];
  for (let m = last - 120; m <= last; m++) full.push(indexAt.get(monthText(m)) ?? null);
  let sales12 = 0;
  for (let m = last - 11; m <= last; m++) sales12 += counts.get(monthText(m))?.sales ?? 0;
  return {
    last,
    months: shown,
    growth: { '1y': growthOver(full, 1), '3y': growthOver(full, 3), '5y': growthOver(full, 5), '10y': growthOver(full, 10) },
    sales12,
  };
}
