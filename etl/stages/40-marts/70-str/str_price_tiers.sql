-- str_price_tiers: the bounds of the five price tiers. Tiers are quintiles of the listed
-- nightly price among comparable listings: same tier band (whole homes by bedrooms 1, 2, 3,
-- 4+, studios with 1; every kind of room together) in the same local authority. A group
-- with fewer than tier_min_listings priced listings is not ranked alone: its listings use
-- the band's build-wide bounds, or failing that the bounds of every priced listing (level
-- 'all', always present). A price equal to a bound belongs to the tier above it.
CREATE OR REPLACE TABLE str_price_tiers AS
WITH p AS (
  -- Outlier prices (str_price_guard) set no bound.
  SELECT la_code, tier_band, price_gbp FROM str_listing_base JOIN str_price_guard USING (id) WHERE price_gbp IS NOT NULL AND NOT price_outlier
),
g AS (
  SELECT
    CASE GROUPING(la_code, tier_band) WHEN 0 THEN 'la_band' WHEN 2 THEN 'band' ELSE 'all' END AS level,
    la_code, tier_band, count(*) AS listings,
    quantile_cont(price_gbp, [0.2, 0.4, 0.6, 0.8]) AS q
  FROM p
  GROUP BY GROUPING SETS ((la_code, tier_band), (tier_band), ())
),
kept AS (
  SELECT * FROM g
  WHERE level = 'all' OR (listings >= $tier_min_listings AND (level = 'band' OR la_code IS NOT NULL))
),
allrow AS (
  -- An empty build still gets an 'all' group, with no bounds.
  SELECT * FROM kept
  UNION ALL
  SELECT 'all', NULL, NULL, 0, [NULL, NULL, NULL, NULL]::DOUBLE[] WHERE NOT EXISTS (SELECT 1 FROM kept WHERE level = 'all')
)
SELECT
  level, la_code, tier_band, listings,
  t.tier, t.tier_rank,
  CASE WHEN t.tier_rank > 1 THEN round(q[t.tier_rank - 1], 2) END AS min_price_gbp,
  CASE WHEN t.tier_rank < 5 THEN round(q[t.tier_rank], 2) END AS max_price_gbp
FROM allrow
CROSS JOIN (VALUES ('Budget', 1), ('Economy', 2), ('Midscale', 3), ('Upscale', 4), ('Luxury', 5)) t(tier, tier_rank)
