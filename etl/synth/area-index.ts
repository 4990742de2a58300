import { BASE_MONTH, DISTRICT_AR, HISTORY_START, NATIONAL_PRICE_ANCHORS, PRICE_SEASONALITY, type TownSpec } from './params.ts';
import { rng } from './prng.ts';
import { monthNum, monthOf, type MonthIdx } from './time.ts';

/**
 * The price level of every postcode district in every month: national path × town tilt ×
 * district deviation × seasonality, scaled so the base month (2023-01) is 100, as UK HPI.
 * A property's true value in month m is its base value × index(m) / 100 (see `trueValue`).
 */
export class AreaIndex {
  readonly start: MonthIdx;
  readonly end: MonthIdx;
  private readonly series = new Map<string, Float64Array>();

  constructor(start: MonthIdx, end: MonthIdx) {
    this.start = start;
    this.end = end;
  }

  set(district: string, values: Float64Array): void {
    if (values.length !== this.end - this.start + 1) throw new Error(`index for ${district}: wrong length`);
    this.series.set(district, values);
  }

  districts(): string[] {
    return [...this.series.keys()];
  }

  /** Index value (base month = 100); months outside the range are clamped to its ends. */
  at(district: string, month: MonthIdx): number {
    const s = this.series.get(district);
    if (!s) throw new Error(`no index for district ${district}`);
    const i = Math.min(Math.max(month - this.start, 0), s.length - 1);
    return s[i]!;
  }
}

/** The property's true market value in a month: base value (at 2023-01) × area index / 100. */
export function trueValue(baseValue: number, district: string, month: MonthIdx, index: AreaIndex): number {
  return (baseValue * index.at(district, month)) / 100;
}

const anchorCache = new WeakMap<[string, number][], (readonly [number, number])[]>();

function interpLog(anchors: [string, number][], m: MonthIdx): number {
  let pts = anchorCache.get(anchors);
  if (!pts) anchorCache.set(anchors, (pts = anchors.map(([s, v]) => [monthOf(s), Math.log(v)] as const)));
  if (m <= pts[0]![0]) return pts[0]![1];
  for (let i = 1; i < pts.length; i++) {
    const [m1, v1] = pts[i]!;
    const [m0, v0] = pts[i - 1]!;
    if (m <= m1) return v0 + ((v1 - v0) * (m - m0)) / (m1 - m0);
  }
  return pts[pts.length - 1]![1];
}

const expCache = new WeakMap<[string, number][], [string, number][]>();

function interpLinear(anchors: [string, number][], m: MonthIdx): number {
  let e = expCache.get(anchors);
  if (!e) expCache.set(anchors, (e = anchors.map(([s, v]) => [s, Math.exp(v)])));
  return interpLog(e, m);
}

/** Log national price level in month m (UK HPI average price path). */
export function nationalLogLevel(m: MonthIdx): number {
  return interpLog(NATIONAL_PRICE_ANCHORS, m);
}

export function seasonality(m: MonthIdx): number {
  return PRICE_SEASONALITY[monthNum(m) - 1]!;
}

/** Builds the index for every district of the given towns, months HISTORY_START … end. */
export function buildAreaIndex(seed: number, towns: { town: TownSpec; districts: string[] }[], end: MonthIdx): AreaIndex {
  const start = monthOf(HISTORY_START);
  const base = monthOf(BASE_MONTH);
  const idx = new AreaIndex(start, end);
  const n = end - start + 1;
  for (const { town, districts } of towns) {
    for (const d of districts) {
      const r = rng(seed, 'district-index', d);
      const drift = r.gauss(0, DISTRICT_AR.driftSdPerYear) / 12;
      const log = new Float64Array(n);
      let ar = 0;
      for (let i = 0; i < n; i++) {
        const m = start + i;
        ar = DISTRICT_AR.phi * ar + r.gauss(0, DISTRICT_AR.sd);
        log[i] = nationalLogLevel(m) + interpLinear(town.priceTilt, m) + ar + drift * (m - base) + Math.log(seasonality(m));
      }
      const b = log[base - start]!;
      const values = new Float64Array(n);
      for (let i = 0; i < n; i++) values[i] = 100 * Math.exp(log[i]! - b);
      idx.set(d, values);
    }
  }
  return idx;
}
