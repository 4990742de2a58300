-- str_price_guard: which listed nightly prices are placeholders or outliers (a £9,999 two-bed,
-- a £1,000 hostel bed), judged against comparable listings: the same guard band (whole homes by
-- bedrooms as their tier band; private, shared and hotel rooms each apart) in the same LA when
-- that group has price_guard_min_listings priced listings, else the band build-wide, else every
-- priced listing. The rule is robust, in logs
-- (prices are skewed): a price is an outlier when |ln price − median| > price_guard_k × 1.4826
-- × MAD (MAD: the median absolute deviation of ln price, at least price_guard_min_mad so that
-- a group of near-equal prices does not flag every small difference). An outlier keeps its
-- published price_gbp but counts in no ADR, occupancy, revenue, price tier or comparable
-- (docs/str.md, "Price guard").
-- Sentinel prices come first (docs/str.md, "Price guard"): a spike of one round value (a
-- multiple of £100, or £1 less: 999 and 1,000 are one spike at 1,000) listed by at least
-- price_sentinel_min_repeats listings of one guard band in one LA, at least price_sentinel_min_gbp
-- and above price_sentinel_factor × the band's median without its spikes (the LA's when it has
-- price_sentinel_min_reference such prices, else the band build-wide, else every listing's). A
-- city whose hostel beds are mostly listed at £999 would otherwise make £999 its median and the
-- one real £100 bed the outlier. Sentinels are flagged and left out of the groups below.
CREATE OR REPLACE TABLE str_price_guard AS
WITH priced AS (
  SELECT id, coalesce(la_code, '*') AS la,
    CASE WHEN listing_type = 'entire_home' THEN tier_band ELSE coalesce(listing_type, 'room') END AS tier_band, price_gbp,
    CASE WHEN price_gbp >= $price_sentinel_min_gbp AND (price_gbp % 100 = 0 OR (price_gbp + 1) % 100 = 0) THEN round(price_gbp / 100) * 100 END AS round_value
  FROM str_listing_base WHERE price_gbp > 0
),
spike AS (
  SELECT la, tier_band, round_value FROM priced WHERE round_value IS NOT NULL GROUP BY ALL HAVING count(*) >= $price_sentinel_min_repeats
),
in_spike AS (
  SELECT pr.*, s.round_value IS NOT NULL AS spiked FROM priced pr LEFT JOIN spike s USING (la, tier_band, round_value)
),
reference AS (
  SELECT
    CASE GROUPING(la, tier_band) WHEN 0 THEN 'la_band' WHEN 2 THEN 'band' ELSE 'all' END AS level,
    la, tier_band, count(*) AS n, median(price_gbp) AS m
  FROM in_spike WHERE NOT spiked GROUP BY GROUPING SETS ((la, tier_band), (tier_band), ())
),
sentinel AS (
  SELECT i.id
  FROM in_spike i
  LEFT JOIN reference l ON l.level = 'la_band' AND l.la = i.la AND l.tier_band = i.tier_band
  LEFT JOIN reference b ON b.level = 'band' AND b.tier_band = i.tier_band
  LEFT JOIN reference a ON a.level = 'all'
  WHERE i.spiked AND i.price_gbp > $price_sentinel_factor * CASE
    WHEN l.n >= $price_sentinel_min_reference THEN l.m WHEN b.n >= $price_sentinel_min_reference THEN b.m ELSE a.m END
),
p AS (
  SELECT id, la, tier_band, ln(price_gbp) AS lp FROM priced ANTI JOIN sentinel USING (id)
),
med AS (
  SELECT
    CASE GROUPING(la, tier_band) WHEN 0 THEN 'la_band' WHEN 2 THEN 'band' ELSE 'all' END AS level,
    la, tier_band, count(*) AS n, median(lp) AS m
  FROM p GROUP BY GROUPING SETS ((la, tier_band), (tier_band), ())
),
dev AS (
  SELECT md.level, md.la, md.tier_band, md.n, md.m, median(abs(p.lp - md.m)) AS mad
  FROM med md JOIN p ON (md.level = 'all')
    OR (md.level = 'band' AND p.tier_band = md.tier_band)
    OR (md.level = 'la_band' AND p.tier_band = md.tier_band AND p.la = md.la)
  GROUP BY ALL
),
-- Every priced listing, sentinels too, is judged against its group's figures without the sentinels.
pick AS (
  SELECT p.id, p.lp,
    CASE WHEN l.n >= $price_guard_min_listings THEN 'la_band' WHEN b.n >= $price_guard_min_listings THEN 'band' ELSE 'all' END AS guard_level,
    CASE WHEN l.n >= $price_guard_min_listings THEN l.m WHEN b.n >= $price_guard_min_listings THEN b.m ELSE a.m END AS m,
    CASE WHEN l.n >= $price_guard_min_listings THEN l.mad WHEN b.n >= $price_guard_min_listings THEN b.mad ELSE a.mad END AS mad
  FROM (SELECT id, la, tier_band, ln(price_gbp) AS lp FROM priced) p
  LEFT JOIN dev l ON l.level = 'la_band' AND l.la = p.la AND l.tier_band = p.tier_band
  LEFT JOIN dev b ON b.level = 'band' AND b.tier_band = p.tier_band
  LEFT JOIN dev a ON a.level = 'all'
)
SELECT
  b.id,
  pick.guard_level,
  exp(pick.m) AS guard_median_gbp,
  -- Prices outside [low, high] are outliers.
  exp(pick.m - $price_guard_k * 1.4826 * greatest(pick.mad, $price_guard_min_mad)) AS guard_low_gbp,
  exp(pick.m + $price_guard_k * 1.4826 * greatest(pick.mad, $price_guard_min_mad)) AS guard_high_gbp,
  s.id IS NOT NULL AS price_sentinel,
  coalesce(s.id IS NOT NULL OR b.price_gbp <= 0 OR abs(pick.lp - pick.m) > $price_guard_k * 1.4826 * greatest(pick.mad, $price_guard_min_mad), false) AS price_outlier
FROM str_listing_base b LEFT JOIN pick USING (id) LEFT JOIN sentinel s USING (id)
