-- The price guard's exclusions per tier band, for the build manifest (docs/str.md, "Price guard").
SELECT tier_band, count(*) FILTER (WHERE price_outlier) AS outliers, count(*) FILTER (WHERE price_gbp IS NOT NULL) AS priced
FROM str_listings GROUP BY tier_band ORDER BY tier_band
