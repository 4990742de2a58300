import { median, quantileSorted } from '../stats.ts';

/**
 * The pure pieces of the sale valuation model (service/domain/valuation-models/sale.ts) that the
 * ETL needs too: the sale evidence file (lib/files/sale-evidence-file.ts) holds each sale's
 * location level and the build's type and age effects, computed once by the ETL exactly as the
 * in-heap model computes them (issue 46, ADR 0015 step 6).
 */

/** Type code of an unknown property type. */
export const UNKNOWN_TYPE = 255;

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
    return s ? this.growthAlong(s, month) : null;
  }

  /** Log growth from `month` to `now` along a series `seriesFor` gave (for a caller that keeps it per path). */
  growthAlong(s: Float64Array, month: number): number {
    const at = (m: number) => s[Math.min(s.length - 1, Math.max(0, m - this.index.start))]!;
    return at(this.now) - at(month);
  }
}

/** The area index's rows as the sale valuation reads them (service/store/sql/valuation_index.sql). */
export interface AreaIndexColumns {
  area_level: ArrayLike<string>;
  area_code: ArrayLike<string>;
  month_no: ArrayLike<number>;
  log_index: ArrayLike<number>;
  enough_sales: ArrayLike<boolean | null>;
}

/** The area index as the model reads it, and its last month (the valuation month). */
export function indexLookupOf(ix: Partial<AreaIndexColumns>, flaggedDistricts: ReadonlySet<string> = new Set()): { lookup: IndexLookup; end: number } {
  const index: AreaIndex = { start: Infinity, series: new Map(), enough: new Map() };
  let end = -Infinity;
  for (let r = 0; r < (ix.month_no?.length ?? 0); r++) {
    const m = ix.month_no![r]!;
    index.start = Math.min(index.start, m);
    end = Math.max(end, m);
  }
  if (!Number.isFinite(index.start)) index.start = end = 0;
  const T = end - index.start + 1;
  for (let r = 0; r < (ix.area_code?.length ?? 0); r++) {
    const key = `${ix.area_level![r]}:${ix.area_code![r]}`;
    let s = index.series.get(key);
    let e = index.enough.get(key);
    if (!s || !e) {
      index.series.set(key, (s = new Float64Array(T)));
      index.enough.set(key, (e = new Uint8Array(T)));
    }
    const t = ix.month_no![r]! - index.start;
    s[t] = ix.log_index![r]!;
    e[t] = ix.enough_sales![r] === true ? 1 : 0;
  }
  // A district whose index the build flagged against UK HPI gets no High answer (issue 48).
  return { lookup: new IndexLookup(index, end, flaggedDistricts), end };
}

/**
 * Type effects on the size-adjusted £/sq ft: per area group the median of each type minus the
 * group's Semi-Detached median, then the median over groups (groups with at least 5 of both).
 * Row i is a sale: its home's floor area (NaN unknown), type code, area group and log value today.
 */
export function typeEffects(
  c: { areaSqft: ArrayLike<number>; type: ArrayLike<number>; group: ArrayLike<number>; logValue: ArrayLike<number> },
  beta: number,
): Float64Array {
  const b = byGroupAndCategory(c.areaSqft.length, 4, (i) => c.areaSqft[i]! > 0 && c.type[i]! < 4, c.group, c.type, (i) => c.logValue[i]! - (1 - beta) * Math.log(c.areaSqft[i]!));
  const diffs: number[][] = [[], [], [], []];
  for (const at of b.groups) {
    if (at[2]! - at[1]! < 5) continue;
    const semi = medianInPlace(b.values.subarray(at[1], at[2]));
    for (let t = 0; t < 4; t++) if (at[t + 1]! - at[t]! >= 5) diffs[t]!.push(medianInPlace(b.values.subarray(at[t], at[t + 1])) - semi);
  }
  const out = new Float64Array(4);
  for (let t = 0; t < 4; t++) out[t] = diffs[t]!.length ? median(diffs[t]!) : 0;
  out[1] = 0;
  return out;
}

/** A sale's location level before its age band's effect: log value less the size and type terms (NaN without a floor area). */
export function sizeTypeLevel(logValue: number, areaSqft: number, type: number, typeLog: ArrayLike<number>, beta: number): number {
  return areaSqft > 0 ? logValue - (1 - beta) * Math.log(areaSqft) - (type < 4 ? typeLog[type]! : 0) : NaN;
}

/** The location level z: `sizeTypeLevel` less the age band's effect. */
export function locationLevel(level: number, age: number, ageLog: ArrayLike<number>): number {
  return age < AGE_BANDS.length ? level - ageLog[age]! : level;
}

/**
 * Effects of a category on a level (NaN rows skipped): per area group the median level of each
 * category minus the group's median, then the median over groups (at least 5 rows of the category).
 */
export function groupEffects(group: ArrayLike<number>, cat: ArrayLike<number>, k: number, level: ArrayLike<number>): Float64Array {
  const b = byGroupAndCategory(group.length, k, (i) => !Number.isNaN(level[i]!) && cat[i]! < k, group, cat, (i) => level[i]!);
  const diffs: number[][] = Array.from({ length: k }, () => []);
  for (const at of b.groups) {
    const per: number[] = [];
    for (let c = 0; c < k; c++) per.push(at[c + 1]! - at[c]! >= 5 ? medianInPlace(b.values.subarray(at[c], at[c + 1])) : NaN);
    // The group's own median, over all its categories (their order within the range no longer matters).
    const m = medianInPlace(b.values.subarray(at[0], at[k]));
    for (let c = 0; c < k; c++) if (!Number.isNaN(per[c]!)) diffs[c]!.push(per[c]! - m);
  }
  return Float64Array.from(diffs, (d) => (d.length ? median(d) : 0));
}

/**
 * The values of the rows `keep` keeps, laid out in one Float64Array by area group and, within a
 * group, by category (< k): each group's boundaries as k + 1 offsets (category c from at[c] to
 * at[c + 1]). The effects' medians read slices of it instead of arrays per group: a national
 * build's sales are held once at 8 bytes each, not in two or three growing JS arrays.
 */
function byGroupAndCategory(
  n: number, k: number, keep: (i: number) => boolean, group: ArrayLike<number>, cat: ArrayLike<number>, value: (i: number) => number,
): { groups: Int32Array[]; values: Float64Array } {
  const counts = new Map<number, Int32Array>();
  for (let i = 0; i < n; i++) {
    if (!keep(i)) continue;
    let c = counts.get(group[i]!);
    if (!c) counts.set(group[i]!, (c = new Int32Array(k)));
    c[cat[i]!]!++;
  }
  let total = 0;
  const next = new Map<number, Int32Array>();
  const groups: Int32Array[] = [];
  for (const [g, c] of counts) {
    const at = new Int32Array(k + 1);
    for (let j = 0; j < k; j++) {
      at[j] = total;
      total += c[j]!;
    }
    at[k] = total;
    groups.push(at);
    next.set(g, at.slice(0, k));
  }
  const values = new Float64Array(total);
  for (let i = 0; i < n; i++) if (keep(i)) values[next.get(group[i]!)![cat[i]!]!++] = value(i);
  return { groups, values };
}

/** The median of a slice, sorting it in place. */
function medianInPlace(v: Float64Array): number {
  return quantileSorted(v.sort(), 0.5);
}

/**
 * The order of evidence sales at equal distance from a home (issue 46): by UPRN, then month,
 * then log value. The in-heap R-tree and the grid-cell file visit equal distances in different
 * orders, so both rank by this, and a valuation is the same from either. Two sales equal in
 * all three are of one home in one month at one price: either serves the model alike.
 */
export function evidenceTie(uprnA: number, monthA: number, valueA: number, uprnB: number, monthB: number, valueB: number): number {
  return uprnA - uprnB || monthA - monthB || valueA - valueB;
}
