import { trueValue, type AreaIndex } from './area-index.ts';
import { HOLDING, SALE_NOISE } from './params.ts';
import { rng, type Rng } from './prng.ts';
import { daysInMonth, firstDay, monthOf, type DayIdx, type MonthIdx } from './time.ts';
import { HISTORY_START } from './params.ts';
import type { Property } from './units.ts';

const HISTORY_START_MONTH = monthOf(HISTORY_START);

export interface Sale {
  id: string; // GUID, upper case, no braces
  month: MonthIdx;
  day: DayIdx;
  trueValue: number;
  /** log(price / true value) before rounding: the idiosyncratic noise. */
  noise: number;
  price: number;
  newBuild: boolean;
  category: 'A' | 'B';
}

export function guid(r: Rng): string {
  const h = r.hex(32).toUpperCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Log sale noise: a two-component normal mixture (see SALE_NOISE); category B sells below value. */
export function saleNoise(r: Rng, category: 'A' | 'B'): number {
  const sd = r.chance(SALE_NOISE.tailShare) ? SALE_NOISE.tailSd : SALE_NOISE.coreSd;
  return (category === 'B' ? SALE_NOISE.categoryBMean : 0) + r.gauss(0, sd);
}

/** Prices as people agree them: mostly round thousands or five-hundreds. */
export function roundPrice(r: Rng, x: number): number {
  const u = r.next();
  const step = x >= 100_000 ? (u < 0.55 ? 1000 : u < 0.85 ? 500 : 1) : u < 0.6 ? 500 : 1;
  return Math.max(1, Math.round(x / step) * step);
}

function holdingMonths(r: Rng, p: Property): number {
  const med = HOLDING.median[p.type] * 12;
  return Math.max(3, Math.round(med * Math.exp(r.gauss(0, HOLDING.sigma))));
}

/**
 * The sale history of a property from HISTORY_START to `today`: a renewal process with
 * lognormal holding periods (median by type), a random phase at the window start, and a
 * new-build sale at completion for homes built inside the window. A share of owners never
 * sell within the window.
 */
export function salesFor(seed: number, p: Property, key: string | number, index: AreaIndex, today: MonthIdx): Sale[] {
  const r = rng(seed, 'sales', key);
  const start = HISTORY_START_MONTH;
  const out: Sale[] = [];
  const never = r.chance(HOLDING.neverShare);
  let t: number;
  if (p.builtMonth !== undefined) {
    out.push(sale(r, p, p.builtMonth, index, true));
    t = p.builtMonth;
    if (never) return out;
    t += holdingMonths(r, p);
  } else {
    if (never) return out;
    t = start + Math.floor(r.next() * holdingMonths(r, p));
  }
  while (t < today) {
    out.push(sale(r, p, t, index, false));
    t += holdingMonths(r, p);
  }
  return out;
}

function sale(r: Rng, p: Property, month: MonthIdx, index: AreaIndex, newBuild: boolean): Sale {
  const category = !newBuild && r.chance(SALE_NOISE.categoryBShare) ? 'B' : 'A';
  const tv = trueValue(p.baseValue, p.district.code, month, index);
  const noise = saleNoise(r, category);
  return {
    id: guid(r),
    month,
    day: firstDay(month) + r.int(0, daysInMonth(month) - 1),
    trueValue: Math.round(tv),
    noise,
    price: roundPrice(r, tv * Math.exp(noise)),
    newBuild,
    category,
  };
}
