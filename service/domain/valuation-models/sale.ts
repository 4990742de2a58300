import { PlanarPoints } from '../../../lib/geo/points.ts';
import { HOME_TYPES, type HomeType } from '../../../schemas/property-types.ts';
import { median } from '../stats.ts';

/**
 * Sale valuation (AVM) cascade, pure: no I/O, no clock (the valuation month is an input).
 * docs/valuation.md explains the model and the measurements behind every parameter.
 *
 * Everything is in log price. Three estimates of a home's value today:
 *  - own sale: its last sale price brought to today with the area index (most local area
 *    with enough sales at the valuation month: sector, outcode, district, country);
 *  - £/sq ft: the nearest sold homes with a floor area, each sale brought to today and
 *    turned into a location level `z = log value − (1 − β) log area − type effect`; the
 *    median z of the nearest `sqftK` plus the subject's own size and type terms;
 *  - comparables: the median of the nearest `compsK` sold homes of the same type, brought to today.
 * High (`last_sold_growth`) is the own sale shrunk towards the local evidence (the £/sq ft
 * estimate, else comparables); Medium (`sqft_estimate`) the £/sq ft estimate; Low
 * (`comparables`) the comparables.
 */

export const PROPERTY_TYPES = HOME_TYPES;
export type PropertyType = HomeType;
/** Type code of an unknown property type. */
export const UNKNOWN_TYPE = 255;

export function typeCode(t: string | null | undefined): number {
  const i = PROPERTY_TYPES.indexOf(t as PropertyType);
  return i < 0 ? UNKNOWN_TYPE : i;
}

/** EPC construction age bands (England and Wales), oldest first. */
export const AGE_BANDS = ['before 1900', '1900-1929', '1930-1949', '1950-1966', '1967-1975', '1976-1982', '1983-1990', '1991-1995', '1996-2002', '2003-2006', '2007-2011', '2012 onwards'] as const;

/** Age band code from an EPC construction age (`England and Wales: 1930-1949`), UNKNOWN_TYPE when none. */
export function ageCode(band: string | null | undefined): number {
  if (!band) return UNKNOWN_TYPE;
  const i = AGE_BANDS.findIndex((b) => band.endsWith(b));
  return i < 0 ? UNKNOWN_TYPE : i;
}

/** Model parameters, measured by the backtest (docs/valuation.md). */
export interface SaleModelParams {
  /** Oldest last sale (months before the valuation month) the High rung uses. */
  highMaxAgeMonths: number;
  /**
   * Weight of the own indexed sale against the £/sq ft estimate, by sale age: [months up to,
   * weight]. Measured on the synthetic region only: no real sample has floor areas.
   */
  highWeights: readonly (readonly [number, number])[];
  /**
   * The same against the comparables (the anchor of a home without a floor area). Measured on
   * the real 2024 Bristol repeat sales (bench/backtest-bristol.ts, issue 48): the own sale alone
   * (weight 1) had the least error for every type and resale gap, 6.8% MdAPE on houses against
   * 12.7% at the 0.5 the £/sq ft anchor earns: comparables without floor areas earn no weight.
   */
  highWeightsComps: readonly (readonly [number, number])[];
  /** Beyond this log distance from the local evidence an own sale's weight shrinks in proportion. */
  highOutlierLog: number;
  /** Size elasticity of £ per sq ft: value ∝ area^(1 − β). */
  sizeBeta: number;
  /** Nearest sold homes with a floor area used for £/sq ft, and the fewest accepted. */
  sqftK: number;
  /** With at least this many sales with a floor area in the home's own postcode, all of those and only those are used (0: off). */
  samePostcodeMin: number;
  sqftMin: number;
  /** Nearest sold homes of the same type used as comparables, and the fewest accepted. */
  compsK: number;
  compsMin: number;
  /** Evidence further than this is not local (metres). */
  radiusM: number;
  /** Evidence sales older than this (months) are left out. */
  evidenceMaxAgeMonths: number;
}

export const SALE_MODEL: SaleModelParams = {
  highMaxAgeMonths: 30 * 12,
  highWeights: [[30 * 12, 0.5]],
  highWeightsComps: [[30 * 12, 1]],
  highOutlierLog: 0.4,
  sizeBeta: 0.2,
  sqftK: 30,
  samePostcodeMin: 8,
  sqftMin: 4,
  compsK: 7,
  compsMin: 3,
  radiusM: 2000,
  evidenceMaxAgeMonths: 25 * 12,
};

export type Confidence = 'High' | 'Medium' | 'Low';
export type Method = 'last_sold_growth' | 'sqft_estimate' | 'comparables';

export interface AreaPath {
  sector: string | null;
  outcode: string | null;
  district: string | null;
  country: string | null;
}

/**
 * The area index: log level per area and month (t = 0 is month number `start`), and whether the
 * area has enough sales in that month (docs/marts.md: `enough_sales`).
 */
export interface AreaIndex {
  start: number;
  series: Map<string, Float64Array>;
  enough: Map<string, Uint8Array>;
}

const LEVELS = ['sector', 'outcode', 'district', 'country'] as const;

/** Growth lookups to one valuation month (`now`, a month number: year × 12 + month − 1). */
export class IndexLookup {
  private readonly cache = new Map<string, Float64Array | null>();
  constructor(
    private readonly index: AreaIndex,
    readonly now: number,
    /**
     * Districts whose index the build flagged against UK HPI (manifest `quality.index_vs_ukhpi`):
     * growth there is still the index's, but it carries no High valuation.
     */
    private readonly flaggedDistricts: ReadonlySet<string> = new Set(),
  ) {}

  /** Whether the home's district index diverged from UK HPI beyond the build's tolerance. */
  flagged(path: AreaPath): boolean {
    return path.district !== null && this.flaggedDistricts.has(path.district);
  }

  /** The series of the most local area with enough sales at `now` (else the most local known). */
  seriesFor(path: AreaPath): Float64Array | null {
    const key = `${path.sector}|${path.outcode}|${path.district}|${path.country}`;
    let s = this.cache.get(key);
    if (s !== undefined) return s;
    s = null;
    let fallback: Float64Array | null = null;
    const t = this.now - this.index.start;
    for (const level of LEVELS) {
      const code = path[level];
      if (code === null) continue;
      const k = `${level}:${code}`;
      const series = this.index.series.get(k);
      if (!series) continue;
      fallback ??= series;
      const enough = this.index.enough.get(k);
      if (enough && t >= 0 && t < enough.length && enough[t]) {
        s = series;
        break;
      }
    }
    s ??= fallback;
    this.cache.set(key, s);
    return s;
  }

  /** Log growth from `month` to `now` (months outside the series clamp to its ends). */
  logGrowth(path: AreaPath, month: number): number | null {
    const s = this.seriesFor(path);
    if (!s) return null;
    const at = (m: number) => s[Math.min(s.length - 1, Math.max(0, m - this.index.start))]!;
    return at(this.now) - at(month);
  }
}

/**
 * Sales before the valuation month, columnar: every recorded sale of every home (the £/sq ft
 * estimate uses them all), `latest` marking each home's latest (comparables are distinct homes).
 */
export interface EvidenceColumns {
  uprn: Float64Array;
  /** Local metres (`localMetres`, lib/geo/points.ts); NaN for a home without a position (in no nearest search). */
  x: Float64Array;
  y: Float64Array;
  type: Uint8Array;
  /** Floor area in sq ft, NaN when unknown. */
  areaSqft: Float64Array;
  /** Log sale price brought to the valuation month. */
  logValue: Float64Array;
  /** Age of the sale in months at the valuation month. */
  ageMonths: Int32Array;
  /** Area group (e.g. sector) for the type effects. */
  group: Int32Array;
  /** Construction age band code (`ageCode`). */
  age: Uint8Array;
  /** 1 on each home's latest sale. */
  latest: Uint8Array;
  /** Postcode id of the home (any consistent numbering). */
  postcode: Int32Array;
}

/** Whether a point has a position: a home without one (NaN) has no neighbours. */
const placed = (x: number, y: number) => Number.isFinite(x) && Number.isFinite(y);

export class SaleEvidence {
  readonly points: PlanarPoints;
  /** Log type effect per type code (Semi-Detached = 0), estimated within area groups. */
  readonly typeLog: Float64Array;
  /** Log effect per construction age band, estimated within area groups after type and size. */
  readonly ageLog: Float64Array;
  /** Location level z per evidence row (NaN without a floor area). */
  readonly z: Float64Array;
  /** Evidence rows by postcode id: rows `byPostcode[pcStart[p] … pcStart[p + 1])`. */
  private readonly byPostcode: Int32Array;
  private readonly pcStart: Int32Array;

  constructor(
    readonly cols: EvidenceColumns,
    readonly params: SaleModelParams = SALE_MODEL,
  ) {
    const n = cols.uprn.length;
    this.typeLog = typeEffects(cols, params.sizeBeta);
    this.z = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const a = cols.areaSqft[i]!;
      const t = cols.type[i]!;
      this.z[i] = a > 0 ? cols.logValue[i]! - (1 - params.sizeBeta) * Math.log(a) - (t < 4 ? this.typeLog[t]! : 0) : NaN;
    }
    this.ageLog = groupEffects(cols.group, cols.age, AGE_BANDS.length, this.z);
    for (let i = 0; i < n; i++) if (cols.age[i]! < AGE_BANDS.length) this.z[i] = this.z[i]! - this.ageLog[cols.age[i]!]!;
    // Counting sort of the rows by postcode id (ids < 0 left out).
    let maxPc = -1;
    for (let i = 0; i < n; i++) maxPc = Math.max(maxPc, cols.postcode[i]!);
    this.pcStart = new Int32Array(maxPc + 2);
    for (let i = 0; i < n; i++) if (cols.postcode[i]! >= 0) this.pcStart[cols.postcode[i]! + 1]!++;
    for (let p = 0; p <= maxPc; p++) this.pcStart[p + 1]! += this.pcStart[p]!;
    this.byPostcode = new Int32Array(this.pcStart[maxPc + 1] ?? 0);
    const fill = this.pcStart.slice(0, maxPc + 1);
    for (let i = 0; i < n; i++) if (cols.postcode[i]! >= 0) this.byPostcode[fill[cols.postcode[i]!]!++] = i;
    this.points = new PlanarPoints(cols.x, cols.y);
  }

  get size(): number {
    return this.cols.uprn.length;
  }

  /** The £/sq ft estimate (log value) for a home of `areaSqft` and type `type`, or null. */
  sqftEstimate(x: number, y: number, uprn: number, type: number, areaSqft: number, age = UNKNOWN_TYPE, postcode = -1): { log: number; n: number } | null {
    if (this.points.size === 0) return null;
    const p = this.params;
    const c = this.cols;
    const usable = (i: number) => c.uprn[i] !== uprn && !Number.isNaN(this.z[i]!) && c.ageMonths[i]! <= p.evidenceMaxAgeMonths;
    let ids: number[] = [];
    if (p.samePostcodeMin > 0 && postcode >= 0 && postcode + 1 < this.pcStart.length) {
      for (let j = this.pcStart[postcode]!; j < this.pcStart[postcode + 1]!; j++) if (usable(this.byPostcode[j]!)) ids.push(this.byPostcode[j]!);
      if (ids.length < p.samePostcodeMin) ids = [];
    }
    if (!ids.length && placed(x, y)) ids = this.points.nearest(x, y, p.sqftK, p.radiusM, usable);
    if (ids.length < p.sqftMin) return null;
    const zs = ids.map((i) => this.z[i]!);
    const log = median(zs) + (1 - p.sizeBeta) * Math.log(areaSqft) + (type < 4 ? this.typeLog[type]! : 0) + (age < AGE_BANDS.length ? this.ageLog[age]! : 0);
    return { log, n: ids.length };
  }

  /** The comparables estimate: median of the nearest sold homes of the same type (any type, type-adjusted, when too few). */
  compsEstimate(x: number, y: number, uprn: number, type: number): { log: number; n: number } | null {
    if (this.points.size === 0 || !placed(x, y)) return null;
    const p = this.params;
    const c = this.cols;
    const fresh = (i: number) => c.latest[i] === 1 && c.uprn[i] !== uprn && c.ageMonths[i]! <= p.evidenceMaxAgeMonths;
    if (type < 4) {
      const same = this.points.nearest(x, y, p.compsK, p.radiusM, (i) => fresh(i) && c.type[i] === type);
      if (same.length >= p.compsMin) return { log: median(same.map((i) => c.logValue[i]!)), n: same.length };
    }
    const any = this.points.nearest(x, y, p.compsK, p.radiusM, fresh);
    if (any.length < p.compsMin) return null;
    const own = type < 4 ? this.typeLog[type]! : 0;
    const adj = (i: number) => c.logValue[i]! - (c.type[i]! < 4 && type < 4 ? this.typeLog[c.type[i]!]! - own : 0);
    return { log: median(any.map(adj)), n: any.length };
  }
}

/**
 * Type effects on the size-adjusted £/sq ft: per area group the median of each type minus the
 * group's Semi-Detached median, then the median over groups (groups with at least 5 of both).
 */
function typeEffects(c: EvidenceColumns, beta: number): Float64Array {
  const byGroup = new Map<number, number[][]>();
  for (let i = 0; i < c.uprn.length; i++) {
    const a = c.areaSqft[i]!;
    const t = c.type[i]!;
    if (!(a > 0) || t >= 4) continue;
    let g = byGroup.get(c.group[i]!);
    if (!g) byGroup.set(c.group[i]!, (g = [[], [], [], []]));
    g[t]!.push(c.logValue[i]! - (1 - beta) * Math.log(a));
  }
  const diffs: number[][] = [[], [], [], []];
  for (const g of byGroup.values()) {
    if (g[1]!.length < 5) continue;
    const semi = median(g[1]!);
    for (let t = 0; t < 4; t++) if (g[t]!.length >= 5) diffs[t]!.push(median(g[t]!) - semi);
  }
  const out = new Float64Array(4);
  for (let t = 0; t < 4; t++) out[t] = diffs[t]!.length ? median(diffs[t]!) : 0;
  out[1] = 0;
  return out;
}

/**
 * Effects of a category on a level (NaN rows skipped): per area group the median level of each
 * category minus the group's median, then the median over groups (at least 5 rows of the category).
 */
function groupEffects(group: Int32Array, cat: Uint8Array, k: number, level: Float64Array): Float64Array {
  const byGroup = new Map<number, { all: number[]; per: number[][] }>();
  for (let i = 0; i < group.length; i++) {
    const v = level[i]!;
    if (Number.isNaN(v) || cat[i]! >= k) continue;
    let g = byGroup.get(group[i]!);
    if (!g) byGroup.set(group[i]!, (g = { all: [], per: Array.from({ length: k }, () => []) }));
    g.all.push(v);
    g.per[cat[i]!]!.push(v);
  }
  const diffs: number[][] = Array.from({ length: k }, () => []);
  for (const g of byGroup.values()) {
    const m = median(g.all);
    for (let c = 0; c < k; c++) if (g.per[c]!.length >= 5) diffs[c]!.push(median(g.per[c]!) - m);
  }
  return Float64Array.from(diffs, (d) => (d.length ? median(d) : 0));
}

/** The home being valued. */
export interface SaleSubject {
  uprn: number;
  /** Local metres; NaN when the home has no position (only its own sale and its postcode's sales can value it). */
  x: number;
  y: number;
  type: number;
  /** Floor area in sq ft, null when no certificate gives one. */
  areaSqft: number | null;
  /** Construction age band code (`ageCode`). */
  age: number;
  /** Postcode id, as in the evidence (−1 unknown). */
  postcode: number;
  path: AreaPath;
  /** Its last sale (price and month number), if any. */
  lastSale: { price: number; month: number } | null;
}

export type SaleEstimate =
  | { value: number; confidence: Confidence; method: Method; evidence: number }
  | { value: null; reason: string };

/** Rounds a value the way valuations are quoted: to £1,000 (to £100 under £50,000). */
export function roundValue(v: number): number {
  return v >= 50_000 ? Math.round(v / 1000) * 1000 : Math.max(100, Math.round(v / 100) * 100);
}

function highWeight(weights: SaleModelParams['highWeights'], age: number): number {
  for (const [upTo, w] of weights) if (age <= upTo) return w;
  return weights.at(-1)?.[1] ?? 1;
}

/** The cascade. Unrounded log value in `log`, for the backtest; `value` rounded. */
export function valueSale(s: SaleSubject, index: IndexLookup, ev: SaleEvidence): SaleEstimate & { log?: number } {
  const p = ev.params;
  const sqft = s.areaSqft !== null && s.areaSqft > 0 ? ev.sqftEstimate(s.x, s.y, s.uprn, s.type, s.areaSqft, s.age, s.postcode) : null;
  const comps = sqft ? null : ev.compsEstimate(s.x, s.y, s.uprn, s.type);
  const anchor = sqft ?? comps;
  // High rests on the area index: not where the build found that index off UK HPI's course.
  if (s.lastSale && s.lastSale.price > 0 && index.now - s.lastSale.month <= p.highMaxAgeMonths && !index.flagged(s.path)) {
    const g = index.logGrowth(s.path, s.lastSale.month);
    if (g !== null) {
      const own = Math.log(s.lastSale.price) + g;
      let log = own;
      if (anchor) {
        const d = own - anchor.log;
        let w = highWeight(sqft ? p.highWeights : p.highWeightsComps, index.now - s.lastSale.month);
        // A sale far from an anchor that earns weight is trusted less; an anchor that earns none
        // (weight 1: comparables without floor areas) pulls nothing, however far.
        if (w < 1 && Math.abs(d) > p.highOutlierLog) w *= p.highOutlierLog / Math.abs(d);
        log = anchor.log + w * d;
      }
      return { log, value: roundValue(Math.exp(log)), confidence: 'High', method: 'last_sold_growth', evidence: 1 + (anchor?.n ?? 0) };
    }
  }
  if (sqft) return { log: sqft.log, value: roundValue(Math.exp(sqft.log)), confidence: 'Medium', method: 'sqft_estimate', evidence: sqft.n };
  if (comps) return { log: comps.log, value: roundValue(Math.exp(comps.log)), confidence: 'Low', method: 'comparables', evidence: comps.n };
  return {
    value: null,
    reason: !placed(s.x, s.y)
      ? `${s.lastSale ? 'its last sale is too old to index' : 'no recorded sale'} and no position to find sold homes near it`
      : s.lastSale
        ? 'its last sale is too old to index and too few homes have sold nearby'
        : `no recorded sale and fewer than ${p.compsMin} sold homes within ${p.radiusM / 1000} km`,
  };
}

/** Bounds as the spec gives them: 90% and 110% of the value. */
export function saleBounds(value: number): { lower_bound: number; upper_bound: number } {
  return { lower_bound: roundValue(value * 0.9), upper_bound: roundValue(value * 1.1) };
}
