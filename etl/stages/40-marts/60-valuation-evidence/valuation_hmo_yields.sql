-- hmo_yields_area: the gross yield an HMO investor gets in an area, as the yield of a typical
-- house of 3+ bedrooms there let room by room: for each such house sold in sqft_sales,
-- 100 × area room rent (rents_rooms) × bedrooms × 12 ÷ its price brought to the build month;
-- median and quartiles by sector, outcode and district, where at least $min_sales sales.
CREATE OR REPLACE TABLE hmo_yields_area AS
WITH houses AS (
  SELECT s.*, l.area_level, l.area_code
  FROM sqft_sales s
  CROSS JOIN LATERAL (VALUES ('district', s.district), ('outcode', s.outcode), ('sector', s.sector)) AS l(area_level, area_code)
  WHERE s.kind = 'house' AND s.bedrooms >= 3 AND l.area_code IS NOT NULL
),
y AS (
  SELECT h.area_level, h.area_code, r.median_pcm AS room_rent_pcm, r.source AS rent_source,
         100 * r.median_pcm * least(h.bedrooms, 8) * 12 / h.price_now AS yield_pct
  FROM houses h
  JOIN rents_rooms r USING (area_level, area_code)
  WHERE r.median_pcm IS NOT NULL
)
SELECT
  area_level, area_code,
  any_value(room_rent_pcm) AS room_rent_pcm,
  any_value(rent_source) AS rent_source,
  count(*)::INTEGER AS sales_count,
  round(median(yield_pct), 3) AS gross_yield_pct,
  round(quantile_cont(yield_pct, 0.25), 3) AS p25_yield_pct,
  round(quantile_cont(yield_pct, 0.75), 3) AS p75_yield_pct
FROM y
GROUP BY area_level, area_code
HAVING count(*) >= $min_sales
ORDER BY area_level, area_code
