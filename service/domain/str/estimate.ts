/**
 * The short-term-let revenue estimate (POST /valuations/str-estimate), as pure functions:
 * no I/O, the comparables and the seasonality are given. docs/str.md ("The estimate")
 * explains every weight and assumption.
 */
import { round1 } from '../stats.ts';

export const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
export type Month3 = (typeof MONTHS)[number];
/** Days of a typical (non-leap) year's months. */
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

export type FinishQuality = 'below_average' | 'average' | 'above_average' | 'very_high';
export type PropertyKind = 'house' | 'apartment';

export const STR_ESTIMATE = {
  /** Comparables are searched within this distance of the property (metres). */
  radiusM: 2000,
  /** At most this many comparables, the most similar and nearest first. */
  maxComparables: 100,
  /** Resemblance per bedroom of difference (0.4 ** |Δ|). */
  bedroomFactor: 0.4,
  /** Resemblance per bathroom of difference (0.75 ** |Δ|); an unknown count counts as one off. */
  bathroomFactor: 0.75,
  /** Resemblance of a listing of the other property type; 0.75 when its type is unknown. */
  otherTypeFactor: 0.5,
  unknownTypeFactor: 0.75,
  /** Proximity weight 1 / (1 + (d / scale)²): 0.69 at 500 m, 0.36 at 1 km, 0.12 at 2 km. */
  distanceScaleM: 750,
  /** Prior slope of log ADR per bedroom (+22% a bedroom) and per bathroom, and their weight. */
  priorBedroomSlope: 0.2,
  priorBathroomSlope: 0.05,
  /** Prior precision of the slopes, as a multiple of the comparables' total weight. */
  priorStrength: 1,
  /** Finish quality multiplies the comparables' ADR (up to ±10%). */
  finish: { below_average: 0.9, average: 1, above_average: 1.05, very_high: 1.1 } as Record<FinishQuality, number>,
  /** A month's occupancy never exceeds this. */
  maxMonthlyOccupancy: 0.95,
  /** Confidence: effective number of comparables (Kish) for High and for Medium. */
  highConfidenceEffective: 12,
  mediumConfidenceEffective: 4,
  /** High (low) season: months whose revenue is at least this fraction above (below) the monthly mean. */
  seasonThreshold: 0.1,
} as const;

/** A listing that may be a comparable, with its distance to the property. */
export interface StrComparable {
  id: string;
  distance_m: number;
  bedrooms: number;
  bathrooms: number | null;
  property_type: PropertyKind | null;
  /** Nightly rate at a month of price index 1 (the year's day-weighted mean), GBP. */
  base_adr: number;
  /** Booked ÷ available nights over the last 12 months, 0–1. */
  occupancy: number;
  /** Share of nights the host blocks, 0–1. */
  blocked_share: number;
  /** Estimated revenue over the last 12 months, GBP. */
  revenue_ltm: number;
  adr_ltm: number;
}

/** Month-of-year indices (January first), each with a day-weighted mean of 1. */
/**
 * Where a seasonality comes from: the LA's own reviews, the build-wide pattern (the LA has
 * none), the national prior (the build has no reviews: docs/str.md step 5) or nothing (flat).
 */
export type SeasonSource = 'reviews' | 'build_wide' | 'national_prior' | 'none';

export interface Seasonality {
  demand: readonly number[];
  adr: readonly number[];
  /** Absent: reviews. */
  source?: SeasonSource;
}

export const FLAT_SEASONALITY: Seasonality = { demand: Array(12).fill(1), adr: Array(12).fill(1) };

export interface StrSubject {
  bedrooms: number;
  bathrooms: number;
  property_type: PropertyKind;
  finish_quality: FinishQuality;
}

export interface MonthFigures {
  adr: number;
  occupancy_pct: number;
  revenue_pcm: number;
  revpar: number;
}

export interface StrComparableOut {
  listing_id: string;
  distance_m: number;
  bedrooms: number;
  bathrooms: number | null;
  property_type: PropertyKind | null;
  adr: number;
  occupancy_pct: number;
  revenue_annual: number;
  similarity_weight: number;
}

export interface StrEstimateFigures {
  projected_monthly: MonthFigures;
  projected_annual: { revenue: number; occupancy_pct: number; high_season_months: Month3[]; low_season_months: Month3[] };
  monthly_breakdown: (MonthFigures & { month: Month3 })[];
  comps: { listings_sampled: number; radius_m: number; similarity_weight_avg: number; comparables?: StrComparableOut[] };
  confidence: 'High' | 'Medium' | 'Low';
}

/** Resemblance of a listing to the property on bedrooms, bathrooms and type, 0–1. */
export function similarity(subject: Omit<StrSubject, 'finish_quality'>, c: Pick<StrComparable, 'bedrooms' | 'bathrooms' | 'property_type'>): number {
  return similarityOf(subject.bedrooms, subject.bathrooms, subject.property_type, c.bedrooms, c.bathrooms, c.property_type);
}

/** `similarity` on plain values (the listing index scores thousands of candidates without objects). */
export function similarityOf(
  beds: number, baths: number, type: PropertyKind,
  cBeds: number, cBaths: number | null, cType: PropertyKind | null,
): number {
  const p = STR_ESTIMATE;
  const b = bedroomResemblance(cBeds - beds);
  const ba = cBaths === null ? p.bathroomFactor : bathroomResemblance(cBaths - baths);
  const t = cType === null ? p.unknownTypeFactor : cType === type ? 1 : p.otherTypeFactor;
  return b * ba * t;
}

// factor ** |Δ| for Δ in half steps (counts are whole, bathrooms may be halves), tabulated:
// scoring thousands of candidates per request should not call Math.pow for each.
const STEPS = 64;
const table = (f: number) => Float64Array.from({ length: STEPS + 1 }, (_, k) => f ** (k / 2));
const BED_POW = table(STR_ESTIMATE.bedroomFactor);
const BATH_POW = table(STR_ESTIMATE.bathroomFactor);
const powOf = (t: Float64Array, f: number, delta: number): number => {
  const k = Math.abs(delta) * 2;
  return Number.isInteger(k) && k <= STEPS ? t[k]! : f ** Math.abs(delta);
};
/** bedroomFactor ** |Δ| */
export const bedroomResemblance = (delta: number): number => powOf(BED_POW, STR_ESTIMATE.bedroomFactor, delta);
/** bathroomFactor ** |Δ| */
export const bathroomResemblance = (delta: number): number => powOf(BATH_POW, STR_ESTIMATE.bathroomFactor, delta);

/** Order of comparables: higher weight first, then nearer, then lower id (reproducible). */
export function comparableOrder(aW: number, aD: number, aId: string, bW: number, bD: number, bId: string): number {
  return bW - aW || aD - bD || (aId < bId ? -1 : aId > bId ? 1 : 0);
}

export function proximity(distanceM: number): number {
  const x = distanceM / STR_ESTIMATE.distanceScaleM;
  return 1 / (1 + x * x);
}

/**
 * The property type most of the nearby listings with the property's bedroom count have
 * (weighted by resemblance on bedrooms and by proximity); apartment on a tie or when none
 * has a known type.
 */
export function inferPropertyType(bedrooms: number, candidates: readonly Pick<StrComparable, 'bedrooms' | 'property_type' | 'distance_m'>[]): PropertyKind {
  let house = 0;
  let flat = 0;
  for (const c of candidates) {
    const w = bedroomResemblance(c.bedrooms - bedrooms) * proximity(c.distance_m);
    if (c.property_type === 'house') house += w;
    else if (c.property_type === 'apartment') flat += w;
  }
  return house > flat ? 'house' : 'apartment';
}

export const defaultBathrooms = (bedrooms: number): number => Math.max(1, bedrooms - 1);

/**
 * The comparables used: the `maxComparables` candidates with the highest weight
 * (similarity × proximity), ties broken by distance then id so the answer is reproducible.
 */
export function selectComparables(subject: StrSubject, candidates: readonly StrComparable[]): { c: StrComparable; sim: number; w: number }[] {
  const scored = candidates.map((c) => {
    const sim = similarity(subject, c);
    return { c, sim, w: sim * proximity(c.distance_m) };
  });
  scored.sort((a, b) => comparableOrder(a.w, a.c.distance_m, a.c.id, b.w, b.c.distance_m, b.c.id));
  return scored.slice(0, STR_ESTIMATE.maxComparables);
}

/**
 * Weighted least squares of y on two centred regressors with a normal prior on the two
 * slopes (ridge towards `prior`): returns the intercept, i.e. the fit at the subject.
 */
export function ridgeIntercept(y: readonly number[], x1: readonly number[], x2: readonly number[], w: readonly number[], prior: [number, number], lambda: number): number {
  // Normal equations for (a, b, c): Σw[1 x1 x2]ᵀ[1 x1 x2] + diag(0, λ, λ); rhs Σw y [1 x1 x2] + λ(0, b0, c0).
  let s0 = 0, s1 = 0, s2 = 0, s11 = 0, s12 = 0, s22 = 0, t0 = 0, t1 = 0, t2 = 0;
  for (let i = 0; i < y.length; i++) {
    const wi = w[i]!, a = x1[i]!, b = x2[i]!, yi = y[i]!;
    s0 += wi; s1 += wi * a; s2 += wi * b; s11 += wi * a * a; s12 += wi * a * b; s22 += wi * b * b;
    t0 += wi * yi; t1 += wi * a * yi; t2 += wi * b * yi;
  }
  const m = [
    [s0, s1, s2],
    [s1, s11 + lambda, s12],
    [s2, s12, s22 + lambda],
  ];
  const r = [t0, t1 + lambda * prior[0], t2 + lambda * prior[1]];
  return solve3(m, r)[0]!;
}

function solve3(m: number[][], r: number[]): number[] {
  const det = (a: number[][]) =>
    a[0]![0]! * (a[1]![1]! * a[2]![2]! - a[1]![2]! * a[2]![1]!) -
    a[0]![1]! * (a[1]![0]! * a[2]![2]! - a[1]![2]! * a[2]![0]!) +
    a[0]![2]! * (a[1]![0]! * a[2]![1]! - a[1]![1]! * a[2]![0]!);
  const d = det(m);
  return [0, 1, 2].map((k) => det(m.map((row, i) => row.map((v, j) => (j === k ? r[i]! : v)))) / d);
}

/**
 * Kish's effective number of comparables, (Σw)² ÷ Σw²: 100 equal weights count 100, one
 * dominant comparable counts about 1. It measures how much similar, nearby evidence the
 * estimate rests on.
 */
export function effectiveComparables(w: readonly number[]): number {
  let s = 0, s2 = 0;
  for (const x of w) {
    s += x;
    s2 += x * x;
  }
  return s2 > 0 ? (s * s) / s2 : 0;
}

/**
 * High from 12 effective comparables, Medium from 4 (thresholds set on the synthetic region's
 * errors: docs/str.md); one level less when the months rest on no local review history (the
 * national prior, or a flat year): the seasons are then an assumption, not an observation.
 */
export function confidenceOf(effective: number, season: SeasonSource = 'reviews'): 'High' | 'Medium' | 'Low' {
  const level = effective >= STR_ESTIMATE.highConfidenceEffective ? 2 : effective >= STR_ESTIMATE.mediumConfidenceEffective ? 1 : 0;
  const lowered = season === 'national_prior' || season === 'none' ? Math.max(0, level - 1) : level;
  return (['Low', 'Medium', 'High'] as const)[lowered]!;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * The 12-month projection from the candidates within the radius (at least one).
 * ADR: a similarity-weighted regression of log base ADR on bedrooms and bathrooms (centred
 * on the property, slopes shrunk towards a prior), times the finish-quality factor.
 * Occupancy and blocked share: weighted means. Months: ADR × the price index, occupancy ×
 * the demand index (capped), over the unblocked nights of each month.
 */
export function estimateStr(
  subject: StrSubject,
  candidates: readonly StrComparable[],
  season: Seasonality,
  opts: { includeComparables?: boolean; radiusM?: number } = {},
): StrEstimateFigures {
  if (candidates.length === 0) throw new Error('estimateStr needs at least one comparable');
  const p = STR_ESTIMATE;
  const chosen = selectComparables(subject, candidates);
  const w = chosen.map((x) => x.w);
  const W = w.reduce((a, b) => a + b, 0);
  const logAdr = ridgeIntercept(
    chosen.map((x) => Math.log(x.c.base_adr)),
    chosen.map((x) => x.c.bedrooms - subject.bedrooms),
    chosen.map((x) => (x.c.bathrooms ?? subject.bathrooms) - subject.bathrooms),
    w,
    [p.priorBedroomSlope, p.priorBathroomSlope],
    p.priorStrength * W,
  );
  const baseAdr = Math.exp(logAdr) * p.finish[subject.finish_quality];
  const occupancy = chosen.reduce((a, x) => a + x.w * x.c.occupancy, 0) / W;
  const blocked = chosen.reduce((a, x) => a + x.w * x.c.blocked_share, 0) / W;

  let revenue = 0, booked = 0, available = 0;
  const months = MONTHS.map((month, i) => {
    const avail = DAYS[i]! * (1 - blocked);
    const occ = Math.min(p.maxMonthlyOccupancy, occupancy * season.demand[i]!);
    const adr = baseAdr * season.adr[i]!;
    const rev = adr * occ * avail;
    revenue += rev;
    booked += occ * avail;
    available += avail;
    return { month, adr, occ, rev, avail };
  });
  const mean = revenue / 12;
  const high = months.filter((m) => m.rev >= mean * (1 + p.seasonThreshold)).map((m) => m.month);
  const low = months.filter((m) => m.rev <= mean * (1 - p.seasonThreshold)).map((m) => m.month);

  const simAvg = chosen.reduce((a, x) => a + x.sim, 0) / chosen.length;
  const confidence = confidenceOf(effectiveComparables(w), season.source);

  const out: StrEstimateFigures = {
    projected_monthly: {
      adr: round2(booked > 0 ? revenue / booked : baseAdr),
      occupancy_pct: round1((100 * booked) / available),
      revenue_pcm: round2(mean),
      revpar: round2(revenue / available),
    },
    projected_annual: { revenue: Math.round(revenue), occupancy_pct: round1((100 * booked) / available), high_season_months: high, low_season_months: low },
    monthly_breakdown: months.map((m) => ({
      month: m.month,
      adr: round2(m.adr),
      occupancy_pct: round1(100 * m.occ),
      revenue_pcm: round2(m.rev),
      revpar: round2(m.rev / m.avail),
    })),
    comps: { listings_sampled: chosen.length, radius_m: opts.radiusM ?? p.radiusM, similarity_weight_avg: Math.round(simAvg * 1000) / 1000 },
    confidence,
  };
  if (opts.includeComparables) {
    out.comps.comparables = chosen.map(({ c, sim }) => ({
      listing_id: c.id,
      distance_m: Math.round(c.distance_m),
      bedrooms: c.bedrooms,
      bathrooms: c.bathrooms,
      property_type: c.property_type,
      adr: round2(c.adr_ltm),
      occupancy_pct: round1(100 * c.occupancy),
      revenue_annual: Math.round(c.revenue_ltm),
      similarity_weight: Math.round(sim * 1000) / 1000,
    }));
  }
  return out;
}
