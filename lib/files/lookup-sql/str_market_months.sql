-- str_market_months: the 24 months of every listing of str_market_listings (same filter and
-- order, so rn is the listing's row there), month as year × 12 + month − 1, by rn and month:
-- loaded once per build with str_market_listings by the service for a build without the STR
-- market files, and merged by rn into each listing's row by the ETL's str-files stage (a sort,
-- which spills, not a list() per listing).
WITH l AS (
  SELECT id, CAST(row_number() OVER (ORDER BY id) - 1 AS INTEGER) AS rn
  FROM str_listings WHERE lat IS NOT NULL AND lng IS NOT NULL
)
SELECT l.rn, CAST(year(m.month) * 12 + month(m.month) - 1 AS INTEGER) AS mi, coalesce(m.live, false) AS live,
  CAST(m.available_nights AS FLOAT) AS available, CAST(m.booked_nights AS FLOAT) AS booked, CAST(m.revenue AS FLOAT) AS revenue
FROM str_listing_months m JOIN l USING (id)
ORDER BY l.rn, m.month
