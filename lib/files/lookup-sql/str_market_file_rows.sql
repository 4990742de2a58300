-- str_market_file_rows: every listing of the market set (str_market_listings: those with a
-- position, by id; rn its row there) with its fields as that query gives them and its months
-- (str_market_months) and prior year (str_market_prior) as lists in month order, month as
-- year × 12 + month − 1, for the ETL to lay out as lib/files/str-market-file.ts's rows file.
WITH l AS (
  SELECT *, CAST(row_number() OVER (ORDER BY id) - 1 AS INTEGER) AS rn
  FROM str_listings WHERE lat IS NOT NULL AND lng IS NOT NULL
),
m AS (
  SELECT l.rn,
    list(CAST(year(m.month) * 12 + month(m.month) - 1 AS INTEGER) ORDER BY m.month) AS m_mi,
    list(coalesce(m.live, false) ORDER BY m.month) AS m_live,
    list(CAST(m.available_nights AS FLOAT) ORDER BY m.month) AS m_available,
    list(CAST(m.booked_nights AS FLOAT) ORDER BY m.month) AS m_booked,
    list(CAST(m.revenue AS FLOAT) ORDER BY m.month) AS m_revenue
  FROM str_listing_months m JOIN l USING (id) GROUP BY l.rn
),
p AS (
  SELECT l.rn,
    list(CAST(year(p.month) * 12 + month(p.month) - 1 AS INTEGER) ORDER BY p.month) AS p_mi,
    list(coalesce(p.live, false) ORDER BY p.month) AS p_live,
    list(CAST(p.revenue AS FLOAT) ORDER BY p.month) AS p_revenue
  FROM str_listing_prior_months p JOIN l USING (id) GROUP BY l.rn
)
SELECT
  l.rn, CAST(l.lat AS DOUBLE) AS lat, CAST(l.lng AS DOUBLE) AS lng, l.postcode, l.sector, l.outcode, l.country,
  l.listing_type, l.property_type, CAST(l.bedrooms AS INTEGER) AS bedrooms, l.price_tier,
  CAST(l.rating_overall AS DOUBLE) AS rating_overall, CAST(l.rating_cleanliness AS DOUBLE) AS rating_cleanliness,
  CAST(l.rating_accuracy AS DOUBLE) AS rating_accuracy, CAST(l.rating_communication AS DOUBLE) AS rating_communication,
  CAST(l.rating_location AS DOUBLE) AS rating_location, CAST(l.rating_check_in AS DOUBLE) AS rating_check_in,
  CAST(l.rating_value AS DOUBLE) AS rating_value,
  coalesce(l.active, false) AS active, coalesce(l.blocked, false) AS blocked,
  coalesce(l.first_review > l.scrape_date - 30, false) AS new_30d,
  CAST(l.booked_ahead_30d AS DOUBLE) AS booked_ahead_30d, CAST(l.available_next_30d AS DOUBLE) AS available_next_30d,
  CAST(l.stay_nights AS DOUBLE) AS stay_nights,
  m.m_mi, m.m_live, m.m_available, m.m_booked, m.m_revenue, p.p_mi, p.p_live, p.p_revenue,
  COLUMNS('^has_')
FROM l LEFT JOIN m USING (rn) LEFT JOIN p USING (rn)
ORDER BY l.rn
