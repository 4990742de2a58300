-- str_area_months: per postcode sector, outcode, local authority and country, and month, the
-- sums over its listings' str_listing_months rows and the ratios of those sums. A listing
-- counts in a month when it is live (docs/str.md); listings with no postcode within reach
-- have no area and are in no row. yoy_revenue_change compares revenue per listing with the
-- same month a year earlier, from str_listing_months_all (a year longer than the window).
-- Float sums are taken exactly over DECIMAL(38, 9) (the values to a billionth): a DOUBLE sum
-- depends on the order DuckDB's threads add rows in, and two builds must publish the same.
-- (TRY_CAST: a non-finite value is left out of the sum rather than failing the build.)
CREATE OR REPLACE TABLE str_area_months AS
WITH lm_all AS (
  SELECT b.sector, b.outcode, b.la_code, b.country, b.live_from, b.active,
         m.month > CAST(b.scrape_month - to_months(CAST($history_months AS INTEGER)) AS DATE) AS in_window, m.*
  FROM str_listing_months_all m JOIN str_listing_base b USING (id)
),
areas AS (
  SELECT 'sector' AS area_level, sector AS area_code, lm_all.* FROM lm_all WHERE sector IS NOT NULL
  UNION ALL SELECT 'outcode', outcode, lm_all.* FROM lm_all WHERE outcode IS NOT NULL
  UNION ALL SELECT 'la', la_code, lm_all.* FROM lm_all WHERE la_code IS NOT NULL
  UNION ALL SELECT 'country', country, lm_all.* FROM lm_all WHERE country IS NOT NULL
),
agg AS (
  -- The window's rows only, so an area-month is the sum of its listings' published months.
  SELECT
    area_level, area_code, month,
    count(*) FILTER (WHERE live) AS active_listings,
    count(*) FILTER (WHERE live AND live_from = month) AS new_listings,
    CAST(sum(TRY_CAST(available_nights AS DECIMAL(38, 9))) AS DOUBLE) AS available_nights,
    CAST(sum(TRY_CAST(booked_nights AS DECIMAL(38, 9))) AS DOUBLE) AS booked_nights,
    CAST(sum(TRY_CAST(blocked_nights AS DECIMAL(38, 9))) AS DOUBLE) AS blocked_nights,
    CAST(sum(TRY_CAST(revenue AS DECIMAL(38, 9))) AS DOUBLE) AS revenue,
    sum(reviews) AS reviews
  FROM areas WHERE in_window GROUP BY area_level, area_code, month
),
prior AS (
  -- Revenue per live listing by area and month over every computed month, for the year-on-year change.
  SELECT area_level, area_code, month, CAST(sum(TRY_CAST(revenue AS DECIMAL(38, 9))) AS DOUBLE) / count(*) FILTER (WHERE live) AS revenue_per_listing
  FROM areas GROUP BY area_level, area_code, month HAVING count(*) FILTER (WHERE live) > 0
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
LEFT JOIN prior py ON py.area_level = r.area_level AND py.area_code = r.area_code AND py.month = CAST(r.month - to_months(12) AS DATE)
