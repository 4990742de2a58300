/**
 * The listings behind the short-term-let market analysis (GET /str/market, /str/listings): the
 * in-memory column-wise set, the filters, and the monthly sums over a group of listings. Pure.
 */
import { PRICE_TIERS } from '../../../schemas/tables/str.ts';

export const HISTORY_MONTHS = 24;
export const LISTING_TYPE_CODES = ['entire_home', 'private_room', 'shared_room', 'hotel_room'] as const;
export const TIER_NAMES = PRICE_TIERS;
export type TierName = (typeof TIER_NAMES)[number];
export const RATING_FIELDS = ['overall', 'cleanliness', 'accuracy', 'communication', 'location', 'check_in', 'value'] as const;


/**
 * The listings of one build, column-wise. Month arrays are `n × 24`, listing i's slot j
 * being month `endMonth[i] − 23 + j` (months counted as year × 12 + month − 1). `prior*`
 * (optional) are `n × 12`: the 12 months before the window, for the first year's
 * year-on-year change.
 */
export interface MarketListings {
  n: number;
  lat: Float64Array;
  lng: Float64Array;
  postcode: (string | null)[];
  sector: (string | null)[];
  outcode: (string | null)[];
  country: (string | null)[];
  /** index into LISTING_TYPE_CODES, 255 unknown */
  type: Uint8Array;
  /** 0 none, 1 house, 2 apartment */
  kind: Uint8Array;
  /** -1 unknown */
  beds: Int16Array;
  /** index into TIER_NAMES, -1 none */
  tier: Int8Array;
  /** n × 7 (RATING_FIELDS order), NaN when absent */
  ratings: Float32Array;
  active: Uint8Array;
  blocked: Uint8Array;
  /** first reviewed in the 30 days before the scrape */
  new30: Uint8Array;
  bookedAhead30: Float32Array;
  openNext30: Float32Array;
  stay: Float32Array;
  amenityKeys: string[];
  /** n × amenityKeys.length, 1 when the listing has it */
  amenities: Uint8Array;
  endMonth: Int32Array;
  /** n × 24 × 4: per listing and slot, [live (0/1), available, booked nights, revenue] */
  months: Float32Array;
  /** n × 12 × 2: per listing and month of the year before its history, [live, revenue] */
  prior?: Float32Array;
}

/** Offsets within a listing-month of `MarketListings.months`. */
export const LIVE = 0, AVAIL = 1, BOOKED = 2, REV = 3;

export interface MarketFilters {
  listing_type?: string;
  bedrooms?: number;
  min_bedrooms?: number;
  max_bedrooms?: number;
  property_type?: 'house' | 'apartment';
  min_rating?: number;
  price_tier?: readonly string[];
}

/** Whether listing i passes the filters. A filter on a value the listing lacks excludes it. */
export function passes(s: MarketListings, i: number, f: MarketFilters): boolean {
  if (f.listing_type !== undefined && LISTING_TYPE_CODES[s.type[i]!] !== f.listing_type) return false;
  const beds = s.beds[i]!;
  if (f.bedrooms !== undefined && beds !== f.bedrooms) return false;
  if (f.min_bedrooms !== undefined && (beds < 0 || beds < f.min_bedrooms)) return false;
  if (f.max_bedrooms !== undefined && (beds < 0 || beds > f.max_bedrooms)) return false;
  if (f.property_type !== undefined && s.kind[i] !== (f.property_type === 'house' ? 1 : 2)) return false;
  if (f.min_rating !== undefined) {
    const r = s.ratings[i * 7]!;
    if (!(r >= f.min_rating)) return false;
  }
  if (f.price_tier !== undefined && f.price_tier.length > 0) {
    const t = s.tier[i]!;
    if (t < 0 || !f.price_tier.includes(TIER_NAMES[t]!)) return false;
  }
  return true;
}


/** Sums over a group of listings: 24 + 12 monthly slots aligned on `end`, and the snapshot counts. */
export class Acc {
  readonly live = new Float64Array(HISTORY_MONTHS);
  readonly avail = new Float64Array(HISTORY_MONTHS);
  readonly booked = new Float64Array(HISTORY_MONTHS);
  readonly rev = new Float64Array(HISTORY_MONTHS);
  readonly priorLive = new Float64Array(12);
  readonly priorRev = new Float64Array(12);
  hasPrior = false;
  listings = 0;
  active = 0;

  constructor(readonly end: number) {}

  /** Interleaved sums of the aligned fast path: 24 × [live, available, booked, revenue], then 12 × [live, revenue]. */
  private readonly raw = new Float64Array(HISTORY_MONTHS * 4 + 24);

  add(s: MarketListings, i: number): void {
    this.listings++;
    if (s.active[i]) this.active++;
    // The selection's window ends at `end`; listing slot j is window slot j - d (d >= 0).
    // Window slots -12..-1 are the year before the window (the prior block).
    const d = this.end - s.endMonth[i]!;
    const M4 = HISTORY_MONTHS * 4;
    const base = i * M4;
    const m = s.months;
    if (d === 0) {
      // One contiguous run of 96 floats per listing: the hot loop of a market request.
      const raw = this.raw;
      for (let q = 0; q < M4; q++) raw[q]! += m[base + q]!;
      if (s.prior) {
        this.hasPrior = true;
        const p = s.prior;
        const pb = i * 24;
        for (let q = 0; q < 24; q++) raw[M4 + q]! += p[pb + q]!;
      }
      return;
    }
    for (let j = 0; j < HISTORY_MONTHS; j++) this.put(j - d, m[base + j * 4]!, m[base + j * 4 + 1]!, m[base + j * 4 + 2]!, m[base + j * 4 + 3]!);
    if (s.prior) {
      this.hasPrior = true;
      const pb = i * 24;
      for (let k = 0; k < 12; k++) this.put(k - 12 - d, s.prior[pb + k * 2]!, 0, 0, s.prior[pb + k * 2 + 1]!);
    }
  }

  /** Folds the fast path's sums into the slot arrays; call once after the last add. */
  fold(): this {
    const raw = this.raw;
    for (let g = 0; g < HISTORY_MONTHS; g++) {
      this.live[g]! += raw[g * 4]!;
      this.avail[g]! += raw[g * 4 + 1]!;
      this.booked[g]! += raw[g * 4 + 2]!;
      this.rev[g]! += raw[g * 4 + 3]!;
    }
    for (let k = 0; k < 12; k++) {
      this.priorLive[k]! += raw[HISTORY_MONTHS * 4 + k * 2]!;
      this.priorRev[k]! += raw[HISTORY_MONTHS * 4 + k * 2 + 1]!;
    }
    raw.fill(0);
    return this;
  }

  private put(g: number, live: number, avail: number, booked: number, rev: number): void {
    if (g >= 0) {
      this.live[g]! += live;
      this.avail[g]! += avail;
      this.booked[g]! += booked;
      this.rev[g]! += rev;
    } else if (g >= -12) {
      this.priorLive[g + 12]! += live;
      this.priorRev[g + 12]! += rev;
    }
  }

  /** Sums over slots [from, to). */
  sum(a: Float64Array, from: number, to: number): number {
    let t = 0;
    for (let g = from; g < to; g++) t += a[g]!;
    return t;
  }

  /** Last-12-month figures. */
  ltm(): { adr: number | null; occupancy: number | null; revpar: number | null; revenue_pcm: number | null; live_months: number } {
    const rev = this.sum(this.rev, 12, 24);
    const booked = this.sum(this.booked, 12, 24);
    const avail = this.sum(this.avail, 12, 24);
    const live = this.sum(this.live, 12, 24);
    return {
      adr: booked > 0 ? rev / booked : null,
      occupancy: avail > 0 ? booked / avail : null,
      revpar: avail > 0 ? rev / avail : null,
      revenue_pcm: live > 0 ? rev / live : null,
      live_months: live,
    };
  }

  /** Revenue per live listing-month of slot g (negative g: the prior year). */
  revenuePerListing(g: number): number | null {
    const live = g < 0 ? this.priorLive[g + 12]! : this.live[g]!;
    const rev = g < 0 ? this.priorRev[g + 12]! : this.rev[g]!;
    return live > 0 ? rev / live : null;
  }
}

export function latestEnd(s: MarketListings, idx: ArrayLike<number>): number {
  let end = -Infinity;
  for (let k = 0; k < idx.length; k++) end = Math.max(end, s.endMonth[idx[k]!]!);
  return end;
}

export function accumulate(s: MarketListings, idx: ArrayLike<number>, end: number): Acc {
  const a = new Acc(end);
  for (let k = 0; k < idx.length; k++) a.add(s, idx[k]!);
  return a.fold();
}
