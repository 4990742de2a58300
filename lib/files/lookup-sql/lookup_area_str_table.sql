-- lookup_area_str_table: each area's short-term lets, keyed "level:code" (STR levels: sector,
-- outcode, la, country): listings at the latest scrape and the 12 months to its last month
-- (ADR = revenue ÷ booked nights, occupancy = booked ÷ available nights).
CREATE TABLE lk_str AS
WITH last AS (
  SELECT area_level, area_code, max(month) AS last_month FROM str_area_months GROUP BY ALL
),
m12 AS (
  SELECT m.area_level, m.area_code, min(m.month) AS from_month, max(m.month) AS to_month,
         -- Summed exactly (DECIMAL): a double sum hangs on the order DuckDB's threads add in.
         sum(m.revenue::DECIMAL(38, 12))::DOUBLE / nullif(sum(m.booked_nights::DECIMAL(38, 12))::DOUBLE, 0) AS adr,
         sum(m.booked_nights::DECIMAL(38, 12))::DOUBLE / nullif(sum(m.available_nights::DECIMAL(38, 12))::DOUBLE, 0) AS occupancy,
         sum(m.booked_nights::DECIMAL(38, 12))::DOUBLE AS booked_nights
  FROM str_area_months m JOIN last l USING (area_level, area_code)
  WHERE m.month > l.last_month - INTERVAL 12 MONTH
  GROUP BY ALL
)
SELECT s.area_level || ':' || s.area_code AS key, s.scrape_date::VARCHAR AS scrape_date, s.listings, s.active_listings,
       m12.from_month::VARCHAR AS from_month, m12.to_month::VARCHAR AS to_month, m12.adr, m12.occupancy, m12.booked_nights
FROM str_area_snapshot s
LEFT JOIN m12 USING (area_level, area_code)
