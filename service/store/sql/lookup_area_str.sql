-- lookup_area_str: an area's short-term lets: listings at the latest scrape and the 12 months to
-- its last month (ADR = revenue ÷ booked nights, occupancy = booked ÷ available nights).
WITH snap AS (
  SELECT scrape_date, listings, active_listings FROM str_area_snapshot WHERE area_level = $1 AND area_code = $2
),
months AS (
  SELECT * FROM str_area_months WHERE area_level = $1 AND area_code = $2
),
last12 AS (
  SELECT * FROM months WHERE month > (SELECT max(month) FROM months) - INTERVAL 12 MONTH
)
SELECT snap.scrape_date::VARCHAR AS scrape_date, snap.listings, snap.active_listings,
       (SELECT min(month)::VARCHAR FROM last12) AS from_month, (SELECT max(month)::VARCHAR FROM last12) AS to_month,
       (SELECT sum(revenue) / nullif(sum(booked_nights), 0) FROM last12) AS adr,
       (SELECT sum(booked_nights) / nullif(sum(available_nights), 0) FROM last12) AS occupancy,
       (SELECT sum(booked_nights) FROM last12) AS booked_nights
FROM snap
