-- mart_sales_by_area: each sale once per area level it lies in (country, district = local
-- authority, outcode, sector), for grouping by (area_level, area_code).
CREATE OR REPLACE TABLE mart_sales_by_area AS
SELECT l.area_level, l.area_code, s.* EXCLUDE (transaction_id)
FROM mart_market_sales s
CROSS JOIN LATERAL (VALUES ('country', s.country), ('district', s.district), ('outcode', s.outcode), ('sector', s.sector)) AS l(area_level, area_code)
WHERE l.area_code IS NOT NULL
