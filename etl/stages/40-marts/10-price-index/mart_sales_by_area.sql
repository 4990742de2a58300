-- mart_sales_by_area: each sale's month and price once per area level it lies in (country,
-- district = local authority, outcode, sector), for grouping by (area_level, area_code).
-- Only what the monthly counts and medians read: four copies of every sale column took
-- most of the stage's SQL time.
CREATE OR REPLACE TABLE mart_sales_by_area AS
SELECT l.area_level, l.area_code, s.month_no, s.price
FROM mart_market_sales s
CROSS JOIN LATERAL (VALUES ('country', s.country), ('district', s.district), ('outcode', s.outcode), ('sector', s.sector)) AS l(area_level, area_code)
WHERE l.area_code IS NOT NULL
