-- str_listing_price: the nightly price each listing's ADR starts from: the listed price, else
-- (listings carried over from a previous scrape publish none) the median listed price of the
-- same tier band in the same outcode, else LA (each with at least impute_min_listings
-- priced listings), else the band build-wide, else every priced listing. An outlier price
-- (str_price_guard) counts as no price: it neither sets a median nor is used.
CREATE OR REPLACE TABLE str_listing_price AS
WITH b AS (
  SELECT s.* REPLACE (CASE WHEN g.price_outlier THEN NULL ELSE s.price_gbp END AS price_gbp)
  FROM str_listing_base s JOIN str_price_guard g USING (id)
),
med AS (
  SELECT
    CASE GROUPING(outcode, la_code, tier_band) WHEN 0 THEN 'outcode' WHEN 4 THEN 'la' WHEN 6 THEN 'band' ELSE 'build' END AS level,
    outcode, la_code, tier_band, count(*) AS n, median(price_gbp) AS p
  FROM b WHERE price_gbp IS NOT NULL
  GROUP BY GROUPING SETS ((outcode, la_code, tier_band), (la_code, tier_band), (tier_band), ())
)
SELECT b.id,
    CASE WHEN b.price_gbp IS NOT NULL THEN b.price_gbp
         WHEN mo.n >= $impute_min_listings THEN mo.p
         WHEN ml.n >= $impute_min_listings THEN ml.p
         WHEN mb.n IS NOT NULL THEN mb.p
         ELSE ma.p END AS base_price,
    CASE WHEN b.price_gbp IS NOT NULL THEN 'listed'
         WHEN mo.n >= $impute_min_listings THEN 'outcode_median'
         WHEN ml.n >= $impute_min_listings THEN 'la_median'
         WHEN mb.n IS NOT NULL THEN 'build_band_median'
         WHEN ma.p IS NOT NULL THEN 'build_median' END AS price_basis
  FROM b
  LEFT JOIN med mo ON mo.level = 'outcode' AND mo.outcode = b.outcode AND mo.la_code = b.la_code AND mo.tier_band = b.tier_band
  LEFT JOIN med ml ON ml.level = 'la' AND ml.la_code = b.la_code AND ml.tier_band = b.tier_band
  LEFT JOIN med mb ON mb.level = 'band' AND mb.tier_band = b.tier_band
  LEFT JOIN med ma ON ma.level = 'build'
