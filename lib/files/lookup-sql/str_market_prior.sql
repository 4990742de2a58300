-- str_market_prior: the 12 months before every listing's published history
-- (str_listing_prior_months), by the listing's row of str_market_listings (same filter and
-- order), month as year × 12 + month − 1; for the first published year's year-on-year change.
WITH l AS (
  SELECT id, CAST(row_number() OVER (ORDER BY id) - 1 AS INTEGER) AS rn
  FROM str_listings WHERE lat IS NOT NULL AND lng IS NOT NULL
)
SELECT l.rn, CAST(year(p.month) * 12 + month(p.month) - 1 AS INTEGER) AS mi, coalesce(p.live, false) AS live,
  CAST(p.revenue AS FLOAT) AS revenue
FROM str_listing_prior_months p JOIN l USING (id)
ORDER BY l.rn, p.month
