-- str_area_snapshot: per postcode sector, outcode, LA and country, the market at the scrape:
-- supply (listings, active, blocked, first reviewed in the last 30 days, live now against a
-- year ago), the coming 30 days from the calendars of active listings (booked ahead, still
-- open), the assumed stay and the ratings. Booking lead time is not derivable from the
-- sources (the calendar never says when a night was booked): there is no column for it.
-- Float sums are taken exactly over DECIMAL(38, 9) (the values to a billionth): a DOUBLE sum
-- depends on the order DuckDB's threads add rows in, and two builds must publish the same.
-- (TRY_CAST: a non-finite value is left out of the sum rather than failing the build.)
CREATE OR REPLACE TABLE str_area_snapshot AS
WITH l AS (
  SELECT 'sector' AS area_level, sector AS area_code, * FROM str_listings WHERE sector IS NOT NULL
  UNION ALL SELECT 'outcode', outcode, * FROM str_listings WHERE outcode IS NOT NULL
  UNION ALL SELECT 'la', la_code, * FROM str_listings WHERE la_code IS NOT NULL
  UNION ALL SELECT 'country', country, * FROM str_listings WHERE country IS NOT NULL
),
live AS (
  SELECT l.area_level, l.area_code,
    count(*) FILTER (WHERE m.live AND m.month = date_trunc('month', l.scrape_date)) AS live_now,
    count(*) FILTER (WHERE m.live AND m.month = CAST(date_trunc('month', l.scrape_date) - to_months(12) AS DATE)) AS live_year_ago
  FROM l JOIN str_listing_months m USING (id)
  GROUP BY l.area_level, l.area_code
)
SELECT
  l.area_level,
  l.area_code,
  max(l.scrape_date) AS scrape_date,
  count(*) AS listings,
  count(*) FILTER (WHERE l.listed) AS listed_listings,
  count(*) FILTER (WHERE l.active) AS active_listings,
  count(*) FILTER (WHERE l.blocked) AS blocked_listings,
  count(*) FILTER (WHERE l.first_review > l.scrape_date - 30) AS new_listings_30d,
  any_value(v.live_now) AS live_listings_now,
  any_value(v.live_year_ago) AS live_listings_year_ago,
  CASE WHEN any_value(v.live_year_ago) > 0 THEN any_value(v.live_now) / any_value(v.live_year_ago) - 1 END AS supply_yoy_growth,
  coalesce(sum(l.booked_ahead_30d) FILTER (WHERE l.active), 0) AS booked_ahead_30d,
  coalesce(sum(l.available_next_30d) FILTER (WHERE l.active), 0) AS available_next_30d,
  avg(TRY_CAST(l.stay_nights AS DECIMAL(38, 9))) FILTER (WHERE l.active) AS stay_nights_avg,
  count(l.rating_overall) FILTER (WHERE l.active) AS listings_with_rating,
  avg(TRY_CAST(l.rating_overall AS DECIMAL(38, 9))) FILTER (WHERE l.active) AS rating_overall_avg
FROM l JOIN live v USING (area_level, area_code)
GROUP BY l.area_level, l.area_code
