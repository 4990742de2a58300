/**
 * The short-term-let method's assumptions, in one place (docs/str.md explains each). They are
 * bound into the `etl/stages/40-marts/70-str/str_*.sql` statements as parameters, never written into the SQL.
 */
export const STR_METHOD = {
  /** Months of history per listing, ending at the scrape month. */
  historyMonths: 24,
  /** Months computed per listing: a year more than published, for the year-on-year change of the first. */
  computedMonths: 36,
  /** Share of stays that leave a review (Inside Airbnb's assumption). */
  reviewRate: 0.5,
  /** Average length of stay in nights when the minimum stay is shorter (Inside Airbnb uses 3). */
  defaultStayNights: 3,
  /** Longest stay counted per review: a 90-night minimum would otherwise book a quarter per review. */
  maxStayNights: 30,
  /** Ceiling on a listing's occupancy over each 12-month block (Inside Airbnb caps at 70%). */
  maxOccupancy: 0.7,
  /** ADR moves with demand to this power (an assumption: no historical prices are published). */
  adrDemandElasticity: 0.7,
  /** Calendar days this far ahead or more count as blocked when closed (few bookings are made so early). */
  blockedFromDay: 90,
  /** Ceiling on the blocked share: a closed far calendar is usually a short booking window, not a closed listing. */
  maxBlockedShare: 0.5,
  /** A listing with no postcode centroid within this distance gets no area. */
  postcodeRadiusM: 1000,
  /** Active: listed now, and reviewed within this many days or bookable in the coming year. */
  activeReviewDays: 365,
  /** The reviews file is current when its latest review is within this many days of the scrape. */
  reviewsCurrentDays: 60,
  /** Months of review history (before the latest review month) that estimate seasonality. */
  seasonalityMonths: 36,
  /** Pseudo-reviews that shrink an LA's seasonality towards the build-wide one. */
  seasonalityPrior: 240,
  /**
   * The national prior for a build with no review history: reviews by month of year (January
   * first) of the only multi-year UK review history in the samples, Bristol 2017-03 to
   * 2020-02 (88,343 reviews; August 1.47 × January per night). An assumption for other cities
   * (a coastal or festival city peaks harder), so estimates resting on it say so and lose a
   * confidence level.
   */
  seasonalityNationalPrior: [5756, 7665, 6175, 6416, 6807, 7482, 8867, 8492, 8675, 8337, 7899, 6772],
  /** Fewest priced listings for a tier group of its own; smaller groups use the wider group's bounds. */
  tierMinListings: 25,
  /** Fewest priced listings in an outcode or LA to impute a missing price from it. */
  imputeMinListings: 5,
  /**
   * Price guard: a listed price is an outlier beyond this many robust SDs (1.4826 × MAD of
   * ln price) from the median of its group. Wider than the usual robust-z cut of 3.5
   * (Iglewicz and Hoaglin): placeholders are orders of magnitude off, while a hotel room at
   * three times a private room's median is a real price. On real Bristol groups it is ×4–×7
   * either side of the median.
   */
  priceGuardK: 5,
  /** Fewest priced listings for a price-guard group of its own (LA and tier band, else the band build-wide). */
  priceGuardMinListings: 20,
  /** Floor on the MAD of ln price (0.1 ≈ 10%), so a group of near-equal prices does not flag small differences. */
  priceGuardMinMad: 0.1,
  /**
   * Sentinel prices (issue 48): one round value (a multiple of £100, or £1 less) listed by at
   * least this many listings of one guard band in one LA is a spike: a placeholder when it is
   * also at least `priceSentinelMinGbp` and above `priceSentinelFactor` × the band's median
   * without its spikes. On the real Bristol scrape no round value repeats more than twice.
   */
  priceSentinelMinRepeats: 3,
  priceSentinelMinGbp: 500,
  priceSentinelFactor: 5,
  /** Fewest prices (spikes left out) for a sentinel reference median of a band's own in an LA, else the band build-wide, else all. */
  priceSentinelMinReference: 5,
} as const;

/** The SQL parameters of the method (names as in the `.sql` files). */
export function strSqlParams(): Record<string, number | string> {
  const m = STR_METHOD;
  return {
    history_months: m.historyMonths,
    computed_months: m.computedMonths,
    review_rate: m.reviewRate,
    default_stay: m.defaultStayNights,
    max_stay: m.maxStayNights,
    max_occupancy: m.maxOccupancy,
    adr_elasticity: m.adrDemandElasticity,
    blocked_from_day: m.blockedFromDay,
    max_blocked_share: m.maxBlockedShare,
    radius_m: m.postcodeRadiusM,
    active_review_days: m.activeReviewDays,
    reviews_current_days: m.reviewsCurrentDays,
    seasonality_months: m.seasonalityMonths,
    seasonality_prior: m.seasonalityPrior,
    season_prior: m.seasonalityNationalPrior.join(','),
    tier_min_listings: m.tierMinListings,
    impute_min_listings: m.imputeMinListings,
    price_guard_k: m.priceGuardK,
    price_guard_min_listings: m.priceGuardMinListings,
    price_guard_min_mad: m.priceGuardMinMad,
    price_sentinel_min_repeats: m.priceSentinelMinRepeats,
    price_sentinel_min_gbp: m.priceSentinelMinGbp,
    price_sentinel_factor: m.priceSentinelFactor,
    price_sentinel_min_reference: m.priceSentinelMinReference,
  };
}
