import { PlanarPoints } from '../../../lib/geo/points.ts';
import {
  AGE_BANDS, SALE_MODEL, UNKNOWN_TYPE, evidenceTie, groupEffects, locationLevel, sizeTypeLevel, typeEffects, type AreaPath, type IndexLookup, type SaleModelParams,
} from '../../../lib/valuation/sale-model.ts';
import { HOME_TYPES, type HomeType } from '../../../schemas/property-types.ts';
import { median } from '../stats.ts';

// The pure pieces the ETL shares (lib/valuation/sale-model.ts), named here as they always were.
export {
  AGE_BANDS, IndexLookup, SALE_MODEL, UNKNOWN_TYPE, ageCode, evidenceTie, indexLookupOf,
  type AreaIndex, type AreaIndexColumns, type AreaPath, type SaleModelParams,
} from '../../../lib/valuation/sale-model.ts';

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
export function typeCode(t: string | null | undefined): number {
  const i = PROPERTY_TYPES.indexOf(t as PropertyType);
  return i < 0 ? UNKNOWN_TYPE : i;
}

export type Confidence = 'High' | 'Medium' | 'Low';
export type Method = 'last_sold_growth' | 'sqft_estimate' | 'comparables';

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

/**
 * The evidence the cascade reads: every sale in the heap (`SaleEvidence`), or read where it
 * lies (service/valuers/sale-evidence-file.ts). Both rank equal distances by `evidenceTie`,
 * so a valuation is the same from either.
 */
export interface Evidence {
  readonly params: SaleModelParams;
  /** Evidence sales (0: no estimate from evidence). */
  readonly size: number;
  /** The £/sq ft estimate (log value) for a home of `areaSqft` and type `type`, or null. */
  sqftEstimate(x: number, y: number, uprn: number, type: number, areaSqft: number, age?: number, postcode?: number): { log: number; n: number } | null;
  /** The comparables estimate: median of the nearest sold homes of the same type (any type, type-adjusted, when too few). */
  compsEstimate(x: number, y: number, uprn: number, type: number): { log: number; n: number } | null;
}

/** The £/sq ft estimate from the location levels `zs` of the sales chosen (null when fewer than `sqftMin`). */
export function sqftFromLevels(zs: readonly number[], areaSqft: number, type: number, age: number, typeLog: ArrayLike<number>, ageLog: ArrayLike<number>, p: SaleModelParams): { log: number; n: number } | null {
  if (zs.length < p.sqftMin) return null;
  const log = median(zs) + (1 - p.sizeBeta) * Math.log(areaSqft) + (type < 4 ? typeLog[type]! : 0) + (age < AGE_BANDS.length ? ageLog[age]! : 0);
  return { log, n: zs.length };
}

/** The comparables estimate from sales of any type (log values and types), adjusted to `type` (null when fewer than `compsMin`). */
export function compsFromAnyType(logValues: readonly number[], types: readonly number[], type: number, typeLog: ArrayLike<number>, p: SaleModelParams): { log: number; n: number } | null {
  if (logValues.length < p.compsMin) return null;
  const own = type < 4 ? typeLog[type]! : 0;
  return { log: median(logValues.map((v, j) => v - (types[j]! < 4 && type < 4 ? typeLog[types[j]!]! - own : 0))), n: logValues.length };
}

export class SaleEvidence implements Evidence {
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
  /** Rows at equal distance by UPRN, month, log value (`evidenceTie`). */
  private readonly tie = (a: number, b: number) => {
    const c = this.cols;
    return evidenceTie(c.uprn[a]!, -c.ageMonths[a]!, c.logValue[a]!, c.uprn[b]!, -c.ageMonths[b]!, c.logValue[b]!);
  };

  constructor(
    readonly cols: EvidenceColumns,
    readonly params: SaleModelParams = SALE_MODEL,
  ) {
    const n = cols.uprn.length;
    this.typeLog = typeEffects(cols, params.sizeBeta);
    this.z = new Float64Array(n);
    for (let i = 0; i < n; i++) this.z[i] = sizeTypeLevel(cols.logValue[i]!, cols.areaSqft[i]!, cols.type[i]!, this.typeLog, params.sizeBeta);
    this.ageLog = groupEffects(cols.group, cols.age, AGE_BANDS.length, this.z);
    for (let i = 0; i < n; i++) this.z[i] = locationLevel(this.z[i]!, cols.age[i]!, this.ageLog);
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
    if (!ids.length && placed(x, y)) ids = this.points.nearestRanked(x, y, p.sqftK, p.radiusM, usable, this.tie);
    return sqftFromLevels(ids.map((i) => this.z[i]!), areaSqft, type, age, this.typeLog, this.ageLog, p);
  }

  compsEstimate(x: number, y: number, uprn: number, type: number): { log: number; n: number } | null {
    if (this.points.size === 0 || !placed(x, y)) return null;
    const p = this.params;
    const c = this.cols;
    const fresh = (i: number) => c.latest[i] === 1 && c.uprn[i] !== uprn && c.ageMonths[i]! <= p.evidenceMaxAgeMonths;
    if (type < 4) {
      const same = this.points.nearestRanked(x, y, p.compsK, p.radiusM, (i) => fresh(i) && c.type[i] === type, this.tie);
      if (same.length >= p.compsMin) return { log: median(same.map((i) => c.logValue[i]!)), n: same.length };
    }
    const any = this.points.nearestRanked(x, y, p.compsK, p.radiusM, fresh, this.tie);
    return compsFromAnyType(any.map((i) => c.logValue[i]!), any.map((i) => c.type[i]!), type, this.typeLog, p);
  }
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
export function valueSale(s: SaleSubject, index: IndexLookup, ev: Evidence): SaleEstimate & { log?: number } {
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
