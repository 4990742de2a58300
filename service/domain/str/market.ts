/**
 * The short-term-rental market analysis (GET /str/market) as pure functions over an
 * in-memory, column-wise set of listings and their 24 months: selection by filters,
 * aggregation into the spec's sections, and the market grade against a benchmark of
 * all areas of the build. No I/O. docs/str.md ("The market analysis") defines every figure.
 */

import { accumulate, AVAIL, BOOKED, HISTORY_MONTHS, latestEnd, LISTING_TYPE_CODES, LIVE, REV, TIER_NAMES, type Acc, type MarketListings } from './market-listings.ts';
import { monthText } from '../../../schemas/months.ts';
import { dimensionValues, GRADE, gradeOf, ungraded, type GradeBenchmark } from './market-grade.ts';
import { round1 } from '../stats.ts';
import type { z } from 'zod';
import type { StrMarketSchema } from '../../../schemas/api/str.ts';

export const SECTIONS = ['summary', 'historical', 'supply', 'ratings', 'amenities', 'by_bedrooms', 'by_listing_type', 'by_price_tier', 'demand', 'grade'] as const;
export type Section = (typeof SECTIONS)[number];

const r2 = (x: number): number => Math.round(x * 100) / 100;
const r4 = (x: number): number => Math.round(x * 10_000) / 10_000;
// Null, not 0, where there is nothing to average (no booked or available night, no live listing).
const pct = (x: number | null): number | null => (x === null ? null : round1(x * 100));
const r2n = (x: number | null): number | null => (x === null ? null : r2(x));

/**
 * Each listing's sums over its own last 12 months (revenue, booked, available nights, live
 * months), four per listing: the breakdowns add four numbers per listing, not 96. The
 * service computes them once per build's set (BuildCaches.strListingLtm) and passes them in.
 */
export function listingLtmSums(s: MarketListings): Float64Array {
  const t = new Float64Array(s.n * 4);
  for (let i = 0; i < s.n; i++) {
    const base = i * HISTORY_MONTHS * 4;
    for (let j = HISTORY_MONTHS - 12; j < HISTORY_MONTHS; j++) {
      t[i * 4]! += s.months[base + j * 4 + REV]!;
      t[i * 4 + 1]! += s.months[base + j * 4 + BOOKED]!;
      t[i * 4 + 2]! += s.months[base + j * 4 + AVAIL]!;
      t[i * 4 + 3]! += s.months[base + j * 4 + LIVE]!;
    }
  }
  return t;
}

/** Last-12-month sums of a breakdown group. */
class Group {
  rev = 0;
  booked = 0;
  avail = 0;
  live = 0;
  active = 0;
  add(t: Float64Array, s: MarketListings, i: number): void {
    this.rev += t[i * 4]!;
    this.booked += t[i * 4 + 1]!;
    this.avail += t[i * 4 + 2]!;
    this.live += t[i * 4 + 3]!;
    this.active += s.active[i]!;
  }
}

function perf(g: Group) {
  return {
    listings: g.active,
    adr: r2n(g.booked > 0 ? g.rev / g.booked : null),
    occupancy_pct: pct(g.avail > 0 ? g.booked / g.avail : null),
    revenue_pcm: r2n(g.live > 0 ? g.rev / g.live : null),
  };
}

/**
 * The requested sections of the market analysis for the listings `idx` (non-empty); `ltmOf`
 * is `listingLtmSums(s)`, passed in so a caller can compute it once per set.
 */
export function marketSections(
  s: MarketListings, idx: ArrayLike<number>, include: ReadonlySet<Section>, bench: GradeBenchmark, ltmOf: Float64Array = listingLtmSums(s),
): Record<string, unknown> {
  const end = latestEnd(s, idx);
  const all = accumulate(s, idx, end);
  const out: Record<string, unknown> = {};
  const ltm = all.ltm();
  const activeIdx: number[] = [];
  for (let k = 0; k < idx.length; k++) if (s.active[idx[k]!]) activeIdx.push(idx[k]!);

  if (include.has('summary')) {
    out.summary = {
      adr: r2n(ltm.adr),
      occupancy_pct: pct(ltm.occupancy),
      revpar: r2n(ltm.revpar),
      revenue_pcm: r2n(ltm.revenue_pcm),
      revenue_annual: r2n(ltm.revenue_pcm === null ? null : ltm.revenue_pcm * 12),
      active_listings: all.active,
    };
  }
  if (include.has('historical')) {
    const rows = [];
    for (let g = 0; g < HISTORY_MONTHS; g++) {
      const rev = all.rev[g]!;
      const booked = all.booked[g]!;
      const avail = all.avail[g]!;
      const now = all.revenuePerListing(g);
      const before = g >= 12 ? all.revenuePerListing(g - 12) : all.hasPrior ? all.revenuePerListing(g - 12) : null;
      rows.push({
        month: monthText(end - HISTORY_MONTHS + 1 + g),
        adr: r2n(booked > 0 ? rev / booked : null),
        occupancy_pct: pct(avail > 0 ? booked / avail : null),
        revenue_pcm: r2n(now),
        revpar: r2n(avail > 0 ? rev / avail : null),
        yoy_revenue_change: now !== null && before !== null && before > 0 ? r4(now / before - 1) : null,
      });
    }
    out.historical = rows;
  }
  if (include.has('supply')) {
    let blocked = 0;
    let fresh = 0;
    for (let k = 0; k < idx.length; k++) {
      blocked += s.blocked[idx[k]!]!;
      fresh += s.new30[idx[k]!]!;
    }
    const now = all.live[23]!;
    const ago = all.live[11]!;
    out.supply = {
      active_listings: all.active,
      yoy_growth_pct: ago > 0 ? round1((now / ago - 1) * 100) : null,
      new_listings_30d: fresh,
      blocked_listings: blocked,
    };
  }
  if (include.has('ratings')) {
    const sums = new Float64Array(7);
    const counts = new Float64Array(7);
    for (const i of activeIdx) {
      for (let f = 0; f < 7; f++) {
        const r = s.ratings[i * 7 + f]!;
        if (!Number.isNaN(r)) {
          sums[f]! += r;
          counts[f]!++;
        }
      }
    }
    const mean = (f: number) => (counts[f]! > 0 ? r2(sums[f]! / counts[f]!) : null);
    out.ratings = {
      overall_avg: mean(0),
      count_with_rating: counts[0]!,
      cleanliness: mean(1),
      accuracy: mean(2),
      communication: mean(3),
      location: mean(4),
      check_in: mean(5),
      value: mean(6),
    };
  }
  if (include.has('amenities')) {
    const base = activeIdx.length > 0 ? activeIdx : Array.from(idx);
    const K = s.amenityKeys.length;
    const counts = new Float64Array(K);
    for (const i of base) for (let a = 0; a < K; a++) counts[a]! += s.amenities[i * K + a]!;
    out.amenities = Object.fromEntries(s.amenityKeys.map((key, a) => [`${key}_pct`, round1((counts[a]! / base.length) * 100)]));
  }
  const groups = (keyOf: (i: number) => number): [number, Group][] => {
    const m: Group[] = [];
    for (let k = 0; k < idx.length; k++) {
      const i = idx[k]!;
      const key = keyOf(i);
      if (key < 0) continue;
      (m[key] ??= new Group()).add(ltmOf, s, i);
    }
    const out: [number, Group][] = [];
    m.forEach((g, key) => {
      if (g && g.active > 0) out.push([key, g]);
    });
    return out;
  };
  if (include.has('by_bedrooms')) {
    out.by_bedrooms = groups((i) => s.beds[i]!).map(([beds, a]) => ({ bedrooms: beds, ...perf(a) }));
  }
  if (include.has('by_listing_type')) {
    out.by_listing_type = groups((i) => (s.type[i] === 255 ? -1 : s.type[i]!)).map(([t, a]) => {
      const p = perf(a);
      return { listing_type: LISTING_TYPE_CODES[t]!, listings: p.listings, adr: p.adr, occupancy_pct: p.occupancy_pct };
    });
  }
  if (include.has('by_price_tier')) {
    out.by_price_tier = groups((i) => s.tier[i]!).map(([t, a]) => ({ tier: TIER_NAMES[t]!, ...perf(a) }));
  }
  if (include.has('demand')) {
    let booked = 0;
    let open = 0;
    let stay = 0;
    for (const i of activeIdx) {
      booked += s.bookedAhead30[i]!;
      open += s.openNext30[i]!;
      stay += s.stay[i]!;
    }
    out.demand = {
      booked_nights_30d: Math.round(booked),
      available_nights_30d: Math.round(open),
      lead_time_avg_days: null,
      length_of_stay_avg: activeIdx.length > 0 ? round1(stay / activeIdx.length) : null,
    };
  }
  if (include.has('grade')) {
    // A market too thin to grade says so: fewer active listings than a benchmark sector needs.
    out.grade = all.active < GRADE.minBenchmarkListings
      ? ungraded(all.active)
      : { ...gradeOf(bench, dimensionValues(s, idx, all)), listings: all.active };
  }
  return out;
}

type Country = z.output<typeof StrMarketSchema>['country'];

/**
 * The country most of the selected listings are in, from their postcodes (ties:
 * alphabetical): a polygon across a border takes its majority. Never a default: undefined
 * when no selected listing has a postcode.
 */
export function countryOf(country: readonly (string | null)[], idx: ArrayLike<number>): Country | undefined {
  // The listings' country column holds the build's country names (England, Scotland, Wales).
  const m = new Map<Country, number>();
  for (let k = 0; k < idx.length; k++) {
    const c = country[idx[k]!] as Country | null | undefined;
    if (c) m.set(c, (m.get(c) ?? 0) + 1);
  }
  return [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
}
