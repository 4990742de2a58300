/**
 * The short-term-rental market analysis (GET /str/market) as pure functions over an
 * in-memory, column-wise set of listings and their 24 months: selection by filters,
 * aggregation into the spec's sections, and the market grade against a benchmark of
 * all areas of the build. No I/O. docs/str.md ("The market analysis") defines every figure.
 */

export const HISTORY_MONTHS = 24;
export const LISTING_TYPE_CODES = ['entire_home', 'private_room', 'shared_room', 'hotel_room'] as const;
export const TIER_NAMES = ['Budget', 'Economy', 'Midscale', 'Upscale', 'Luxury'] as const;
export type TierName = (typeof TIER_NAMES)[number];
export const RATING_FIELDS = ['overall', 'cleanliness', 'accuracy', 'communication', 'location', 'check_in', 'value'] as const;
export const SECTIONS = ['summary', 'historical', 'supply', 'ratings', 'amenities', 'by_bedrooms', 'by_listing_type', 'by_price_tier', 'demand', 'grade'] as const;
export type Section = (typeof SECTIONS)[number];

/** Grade dimensions, each oriented so that a higher value is a better market for a host. */
export const DIMENSIONS = ['revenue', 'occupancy', 'revenue_growth', 'stability', 'supply_headroom', 'guest_rating'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

export const GRADE = {
  /** A postcode sector joins the benchmark with at least this many active listings. */
  minBenchmarkListings: 3,
  /** Lowest score of each letter; below the last, F. */
  bands: [
    ['A', 85],
    ['B', 70],
    ['C', 50],
    ['D', 30],
    ['E', 15],
  ] as const,
  /** How many dimensions strongest and weakest name. */
  named: 2,
};

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

export const monthLabel = (m: number): string => `${Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`;
export const monthIndex = (isoDate: string): number => Number(isoDate.slice(0, 4)) * 12 + Number(isoDate.slice(5, 7)) - 1;

/** Sums over a group of listings: 24 + 12 monthly slots aligned on `end`, and the snapshot counts. */
class Acc {
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

const r2 = (x: number): number => Math.round(x * 100) / 100;
const r1 = (x: number): number => Math.round(x * 10) / 10;
const r4 = (x: number): number => Math.round(x * 10_000) / 10_000;
// Null, not 0, where there is nothing to average (no booked or available night, no live listing).
const pct = (x: number | null): number | null => (x === null ? null : r1(x * 100));
const r2n = (x: number | null): number | null => (x === null ? null : r2(x));

function latestEnd(s: MarketListings, idx: ArrayLike<number>): number {
  let end = -Infinity;
  for (let k = 0; k < idx.length; k++) end = Math.max(end, s.endMonth[idx[k]!]!);
  return end;
}

function accumulate(s: MarketListings, idx: ArrayLike<number>, end: number): Acc {
  const a = new Acc(end);
  for (let k = 0; k < idx.length; k++) a.add(s, idx[k]!);
  return a.fold();
}

/** The grade's raw dimension values for a group (null when not measurable). */
export function dimensionValues(s: MarketListings, idx: ArrayLike<number>, acc?: Acc): Record<Dimension, number | null> {
  const a = acc ?? accumulate(s, idx, latestEnd(s, idx));
  const ltm = a.ltm();
  const prevLive = a.sum(a.live, 0, 12);
  const prevRev = a.sum(a.rev, 0, 12);
  const prevRpl = prevLive > 0 ? prevRev / prevLive : 0;
  const rpls: number[] = [];
  for (let g = 12; g < 24; g++) {
    const x = a.revenuePerListing(g);
    if (x !== null) rpls.push(x);
  }
  let stability: number | null = null;
  if (rpls.length >= 6) {
    const mean = rpls.reduce((t, x) => t + x, 0) / rpls.length;
    const sd = Math.sqrt(rpls.reduce((t, x) => t + (x - mean) ** 2, 0) / rpls.length);
    stability = mean > 0 ? -(sd / mean) : null;
  }
  const liveNow = a.live[23]!;
  const liveYearAgo = a.live[11]!;
  let rating = 0;
  let rated = 0;
  for (let k = 0; k < idx.length; k++) {
    const i = idx[k]!;
    const r = s.ratings[i * 7]!;
    if (s.active[i] && !Number.isNaN(r)) {
      rating += r;
      rated++;
    }
  }
  return {
    revenue: ltm.live_months > 0 ? ltm.revenue_pcm : null,
    occupancy: ltm.occupancy,
    revenue_growth: prevRpl > 0 && ltm.revenue_pcm !== null ? ltm.revenue_pcm / prevRpl - 1 : null,
    stability,
    supply_headroom: liveYearAgo > 0 ? -(liveNow / liveYearAgo - 1) : null,
    guest_rating: rated > 0 ? rating / rated : null,
  };
}

/** Share of `sorted` below v, ties counting half, 0-100. */
export function percentileOf(sorted: readonly number[], v: number): number {
  if (sorted.length === 0) return 50;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  let eq = lo;
  while (eq < sorted.length && sorted[eq] === v) eq++;
  return ((lo + (eq - lo) / 2) / sorted.length) * 100;
}

/** The benchmark: every dimension's values over the build's areas, and the areas' composite scores. */
export interface GradeBenchmark {
  areas: string[];
  dims: Record<Dimension, number[]>;
  composites: number[];
}

function composite(bench: Pick<GradeBenchmark, 'dims'>, v: Record<Dimension, number | null>): { composite: number | null; pct: Partial<Record<Dimension, number>> } {
  const pctBy: Partial<Record<Dimension, number>> = {};
  let t = 0;
  let k = 0;
  for (const d of DIMENSIONS) {
    const x = v[d];
    if (x === null || bench.dims[d].length === 0) continue;
    const p = percentileOf(bench.dims[d], x);
    pctBy[d] = p;
    t += p;
    k++;
  }
  return { composite: k > 0 ? t / k : null, pct: pctBy };
}

/**
 * The benchmark over the build's postcode sectors with at least `minBenchmarkListings`
 * active listings (all sectors with an active listing when none has that many).
 */
export function gradeBenchmark(s: MarketListings): GradeBenchmark {
  const bySector = new Map<string, number[]>();
  for (let i = 0; i < s.n; i++) {
    const sec = s.sector[i];
    if (!sec) continue;
    let a = bySector.get(sec);
    if (!a) bySector.set(sec, (a = []));
    a.push(i);
  }
  const activeIn = (idx: number[]) => idx.reduce((t, i) => t + s.active[i]!, 0);
  let areas = [...bySector.keys()].filter((k) => activeIn(bySector.get(k)!) >= GRADE.minBenchmarkListings);
  if (areas.length === 0) areas = [...bySector.keys()].filter((k) => activeIn(bySector.get(k)!) > 0);
  areas.sort();
  const values = areas.map((k) => dimensionValues(s, bySector.get(k)!));
  const dims = Object.fromEntries(DIMENSIONS.map((d) => [d, values.map((v) => v[d]).filter((x): x is number => x !== null).sort((a, b) => a - b)])) as Record<Dimension, number[]>;
  const composites = values.map((v) => composite({ dims }, v).composite).filter((x): x is number => x !== null).sort((a, b) => a - b);
  return { areas, dims, composites };
}

export interface Grade {
  letter: 'A' | 'B' | 'C' | 'D' | 'E' | 'F';
  score_0_100: number;
  strongest: Dimension[];
  weakest: Dimension[];
}

export function letterOf(score: number): Grade['letter'] {
  for (const [l, min] of GRADE.bands) if (score >= min) return l;
  return 'F';
}

/** The grade of a group's dimension values against the benchmark. */
/** The grade of a selection with too few active listings to rank: no letter, and why. */
export function ungraded(active: number): Record<string, unknown> {
  return {
    letter: null, score_0_100: null, strongest: [], weakest: [], listings: active,
    note: `Too thin to grade: ${active} active listing${active === 1 ? '' : 's'}, at least ${GRADE.minBenchmarkListings} needed.`,
  };
}

export function gradeOf(bench: GradeBenchmark, v: Record<Dimension, number | null>): Grade {
  const c = composite(bench, v);
  const score = c.composite === null ? 50 : percentileOf(bench.composites, c.composite);
  const ranked = (Object.entries(c.pct) as [Dimension, number][]).sort((a, b) => b[1] - a[1] || DIMENSIONS.indexOf(a[0]) - DIMENSIONS.indexOf(b[0]));
  const k = Math.min(GRADE.named, Math.floor(ranked.length / 2));
  return {
    letter: letterOf(score),
    score_0_100: r1(score),
    strongest: ranked.slice(0, k).map(([d]) => d),
    weakest: ranked.slice(ranked.length - k).reverse().map(([d]) => d),
  };
}

/**
 * Each listing's sums over its own last 12 months (revenue, booked, available nights, live
 * months), computed once per set: the breakdowns add four numbers per listing, not 96.
 */
const ltmCache = new WeakMap<MarketListings, Float64Array>();
function listingLtm(s: MarketListings): Float64Array {
  let t = ltmCache.get(s);
  if (!t) {
    t = new Float64Array(s.n * 4);
    for (let i = 0; i < s.n; i++) {
      const base = i * HISTORY_MONTHS * 4;
      for (let j = HISTORY_MONTHS - 12; j < HISTORY_MONTHS; j++) {
        t[i * 4]! += s.months[base + j * 4 + REV]!;
        t[i * 4 + 1]! += s.months[base + j * 4 + BOOKED]!;
        t[i * 4 + 2]! += s.months[base + j * 4 + AVAIL]!;
        t[i * 4 + 3]! += s.months[base + j * 4 + LIVE]!;
      }
    }
    ltmCache.set(s, t);
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

/** The requested sections of the market analysis for the listings `idx` (non-empty). */
export function marketSections(s: MarketListings, idx: ArrayLike<number>, include: ReadonlySet<Section>, bench: GradeBenchmark): Record<string, unknown> {
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
        month: monthLabel(end - HISTORY_MONTHS + 1 + g),
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
      yoy_growth_pct: ago > 0 ? r1((now / ago - 1) * 100) : null,
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
    out.amenities = Object.fromEntries(s.amenityKeys.map((key, a) => [`${key}_pct`, r1((counts[a]! / base.length) * 100)]));
  }
  const ltmOf = listingLtm(s);
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
      length_of_stay_avg: activeIdx.length > 0 ? r1(stay / activeIdx.length) : null,
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
