-- str_market_prior_rows: the market set's listings' prior year (str_listing_prior_months) by
-- listing row (rn, as str_market_file_rows numbers them) and month, month as year × 12 +
-- month − 1, for the ETL to merge into each listing's row.
WITH l AS (
  SELECT id, CAST(row_number() OVER (ORDER BY id) - 1 AS INTEGER) AS rn
  FROM str_listings WHERE lat IS NOT NULL AND lng IS NOT NULL
)
SELECT l.rn, CAST(year(p.month) * 12 + month(p.month) - 1 AS INTEGER) AS mi, coalesce(p.live, false) AS live,
  CAST(p.revenue AS FLOAT) AS revenue
FROM str_listing_prior_months p JOIN l USING (id)
ORDER BY l.rn, p.month
