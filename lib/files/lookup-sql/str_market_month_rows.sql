-- str_market_month_rows: the market set's listings' months (str_listing_months) by listing row
-- (rn, as str_market_file_rows numbers them) and month, month as year × 12 + month − 1, for the
-- ETL to merge into each listing's row (a sort, which spills, not a list per listing).
WITH l AS (
  SELECT id, CAST(row_number() OVER (ORDER BY id) - 1 AS INTEGER) AS rn
  FROM str_listings WHERE lat IS NOT NULL AND lng IS NOT NULL
)
SELECT l.rn, CAST(year(m.month) * 12 + month(m.month) - 1 AS INTEGER) AS mi, coalesce(m.live, false) AS live,
  CAST(m.available_nights AS FLOAT) AS available, CAST(m.booked_nights AS FLOAT) AS booked, CAST(m.revenue AS FLOAT) AS revenue
FROM str_listing_months m JOIN l USING (id)
ORDER BY l.rn, m.month
