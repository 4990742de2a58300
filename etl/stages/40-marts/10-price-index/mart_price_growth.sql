-- price_growth: each area's index at the latest month (Price Paid's latest, not the build's), growth over 1, 3, 5 and
-- 10 years as fractions (null when the index does not reach back that far), and its sales in
-- the last 12 months.
CREATE OR REPLACE TABLE price_growth AS
WITH lagged AS (
  SELECT
    *,
    lag(index, 12) OVER w AS index_1y,
    lag(index, 36) OVER w AS index_3y,
    lag(index, 60) OVER w AS index_5y,
    lag(index, 120) OVER w AS index_10y,
    row_number() OVER (PARTITION BY area_level, area_code ORDER BY month DESC) AS recency
  FROM price_index_monthly
  WINDOW w AS (PARTITION BY area_level, area_code ORDER BY month)
),
recent AS (
  -- Per area level by grouping sets, as mart_price_index_monthly's monthly medians.
  SELECT
    CASE WHEN grouping(country) = 0 THEN 'country' WHEN grouping(district) = 0 THEN 'district'
         WHEN grouping(outcode) = 0 THEN 'outcode' ELSE 'sector' END AS area_level,
    coalesce(country, district, outcode, sector) AS area_code,
    median(price) AS median_price_12m
  FROM mart_market_sales
  WHERE month_no > $latest_month_no - 12
  GROUP BY GROUPING SETS ((country), (district), (outcode), (sector))
  HAVING coalesce(country, district, outcode, sector) IS NOT NULL
)
SELECT
  l.area_level,
  l.area_code,
  l.parent_code,
  l.month AS as_of_month,
  l.index,
  round(l.index / l.index_1y - 1, 4) AS growth_1y,
  round(l.index / l.index_3y - 1, 4) AS growth_3y,
  round(l.index / l.index_5y - 1, 4) AS growth_5y,
  round(l.index / l.index_10y - 1, 4) AS growth_10y,
  l.sales_12m,
  r.median_price_12m,
  l.repeat_pairs,
  l.enough_sales
FROM lagged l
LEFT JOIN recent r USING (area_level, area_code)
WHERE l.recency = 1
