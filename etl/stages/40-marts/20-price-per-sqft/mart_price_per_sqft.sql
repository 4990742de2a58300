-- price_per_sqft: £ per sq ft of the last 24 months' standard sales (prices brought to the
-- index's last month, Price Paid's latest) with an EPC floor area, by area level, property type (or All) and segment
-- (new build, resale or all): median, quartiles and a relative spread.
CREATE OR REPLACE TABLE price_per_sqft AS
WITH per_sale AS (
  SELECT l.area_level, l.area_code, s.property_type, s.new_build, s.price_now / s.floor_area_sqft AS gbp_sqft
  FROM mart_recent_sales s
  CROSS JOIN LATERAL (VALUES ('district', s.district), ('outcode', s.outcode), ('sector', s.sector)) AS l(area_level, area_code)
  WHERE l.area_code IS NOT NULL AND s.floor_area_sqft > 0 AND s.property_type IS NOT NULL
),
grouped AS (
  SELECT
    area_level, area_code,
    CASE WHEN grouping(property_type) = 1 THEN 'All' ELSE property_type END AS property_type,
    CASE WHEN grouping(new_build) = 1 THEN 'all' WHEN new_build THEN 'new_build' ELSE 'resale' END AS segment,
    count(*)::INTEGER AS sales_count,
    median(gbp_sqft) AS median_gbp_sqft,
    quantile_cont(gbp_sqft, 0.25) AS p25_gbp_sqft,
    quantile_cont(gbp_sqft, 0.75) AS p75_gbp_sqft
  FROM per_sale
  GROUP BY area_level, area_code, GROUPING SETS ((property_type, new_build), (property_type), (new_build), ())
)
SELECT
  area_level, area_code, property_type, segment, sales_count,
  round(median_gbp_sqft, 2) AS median_gbp_sqft,
  round(p25_gbp_sqft, 2) AS p25_gbp_sqft,
  round(p75_gbp_sqft, 2) AS p75_gbp_sqft,
  round((p75_gbp_sqft - p25_gbp_sqft) / median_gbp_sqft, 4) AS iqr_ratio
FROM grouped
