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
CREATE OR REPLACE TABLE str_price_guard AS
WITH p AS (
  SELECT id, coalesce(la_code, '*') AS la,
    CASE WHEN listing_type = 'entire_home' THEN tier_band ELSE coalesce(listing_type, 'room') END AS tier_band, ln(price_gbp) AS lp
  FROM str_listing_base WHERE price_gbp > 0
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
pick AS (
  SELECT p.id, p.lp,
    CASE WHEN l.n >= $price_guard_min_listings THEN 'la_band' WHEN b.n >= $price_guard_min_listings THEN 'band' ELSE 'all' END AS guard_level,
    CASE WHEN l.n >= $price_guard_min_listings THEN l.m WHEN b.n >= $price_guard_min_listings THEN b.m ELSE a.m END AS m,
    CASE WHEN l.n >= $price_guard_min_listings THEN l.mad WHEN b.n >= $price_guard_min_listings THEN b.mad ELSE a.mad END AS mad
  FROM p
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
  coalesce(b.price_gbp <= 0 OR abs(pick.lp - pick.m) > $price_guard_k * 1.4826 * greatest(pick.mad, $price_guard_min_mad), false) AS price_outlier
FROM str_listing_base b LEFT JOIN pick USING (id)
