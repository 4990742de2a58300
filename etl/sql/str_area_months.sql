-- str_area_months: per postcode sector, outcode, local authority and country, and month, the
-- sums over its listings' str_listing_months rows and the ratios of those sums. A listing
-- counts in a month when it is live (docs/str.md); listings with no postcode within reach
-- have no area and are in no row. yoy_revenue_change compares revenue per listing with the
-- same month a year earlier (null for the first 12 months of the window).
CREATE OR REPLACE TABLE str_area_months AS
WITH lm AS (
  SELECT b.sector, b.outcode, b.la_code, b.country, b.live_from, b.active, m.*
  FROM str_listing_months m JOIN str_listing_base b USING (id)
),
areas AS (
  SELECT 'sector' AS area_level, sector AS area_code, lm.* FROM lm WHERE sector IS NOT NULL
  UNION ALL SELECT 'outcode', outcode, lm.* FROM lm WHERE outcode IS NOT NULL
  UNION ALL SELECT 'la', la_code, lm.* FROM lm WHERE la_code IS NOT NULL
  UNION ALL SELECT 'country', country, lm.* FROM lm WHERE country IS NOT NULL
),
agg AS (
  SELECT
    area_level, area_code, month,
    count(*) FILTER (WHERE live) AS active_listings,
    count(*) FILTER (WHERE live AND live_from = month) AS new_listings,
    sum(available_nights) AS available_nights,
    sum(booked_nights) AS booked_nights,
    sum(blocked_nights) AS blocked_nights,
    sum(revenue) AS revenue,
    sum(reviews) AS reviews
  FROM areas GROUP BY area_level, area_code, month
),
r AS (
  SELECT *,
    CASE WHEN available_nights > 0 THEN booked_nights / available_nights END AS occupancy,
    CASE WHEN booked_nights > 0 THEN revenue / booked_nights END AS adr,
    CASE WHEN available_nights > 0 THEN revenue / available_nights END AS revpar,
    CASE WHEN active_listings > 0 THEN revenue / active_listings END AS revenue_per_listing
  FROM agg
)
SELECT r.*,
  CASE WHEN py.revenue_per_listing > 0 THEN r.revenue_per_listing / py.revenue_per_listing - 1 END AS yoy_revenue_change
FROM r
LEFT JOIN r py ON py.area_level = r.area_level AND py.area_code = r.area_code AND py.month = CAST(r.month - to_months(12) AS DATE)
