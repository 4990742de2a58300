-- sqft_sales: standard (category A) sales of the 36 months to the end of Price Paid's latest month ($window_end) of homes with an
-- EPC floor area, with the price brought to the index's last month by the outcode's repeat-sales
-- index (the country's where the outcode has none), £ per sq ft, new build or resale, and the
-- home's position. The development GDV endpoint reads new-build £ per sq ft near a site from it.
CREATE OR REPLACE TABLE sqft_sales AS
WITH idx AS (
  SELECT area_level, area_code, month, index FROM price_index_monthly WHERE area_level IN ('outcode', 'country')
),
latest AS (
  SELECT area_level, area_code, arg_max(index, month) AS index_now FROM idx GROUP BY ALL
),
s AS (
  SELECT s.uprn, s.price, s.date, s.new_build, p.property_type, p.bedrooms, p.floor_area_sqft,
         p.lat, p.lng, p.sector, p.outcode, p.la_code AS district, p.country
  FROM sales s
  JOIN properties p USING (uprn)
  WHERE s.category = 'A' AND s.price > 0 AND p.floor_area_sqft > 0 AND p.property_type IS NOT NULL
    AND s.date > $window_end::DATE - INTERVAL 36 MONTH AND s.date <= $window_end::DATE
)
SELECT
  s.uprn, s.date, s.price,
  round(s.price * coalesce(lo.index_now / io.index, lc.index_now / ic.index, 1)) AS price_now,
  s.new_build,
  s.property_type,
  CASE WHEN s.property_type = 'Flat' THEN 'flat' ELSE 'house' END AS kind,
  s.bedrooms,
  s.floor_area_sqft,
  round(s.price * coalesce(lo.index_now / io.index, lc.index_now / ic.index, 1) / s.floor_area_sqft, 2) AS gbp_sqft,
  s.lat, s.lng, s.sector, s.outcode, s.district
FROM s
LEFT JOIN idx io ON io.area_level = 'outcode' AND io.area_code = s.outcode AND io.month = strftime(s.date, '%Y-%m')
LEFT JOIN latest lo ON lo.area_level = 'outcode' AND lo.area_code = s.outcode
LEFT JOIN idx ic ON ic.area_level = 'country' AND ic.area_code = s.country AND ic.month = strftime(s.date, '%Y-%m')
LEFT JOIN latest lc ON lc.area_level = 'country' AND lc.area_code = s.country
ORDER BY kind, lat, lng
