-- price_index_monthly: the solved repeat-sales index (mart_index_series, from TypeScript) with
-- each area's sales volume and median price by month, its sales in the 12 months to the month,
-- and whether the area has enough sales to be used on its own.
CREATE OR REPLACE TABLE price_index_monthly AS
WITH by_month AS (
  -- Per area level (country, district = local authority, outcode, sector) by grouping sets:
  -- a row per sale and level made first took three times as long at 1M addresses.
  SELECT
    CASE WHEN grouping(country) = 0 THEN 'country' WHEN grouping(district) = 0 THEN 'district'
         WHEN grouping(outcode) = 0 THEN 'outcode' ELSE 'sector' END AS area_level,
    coalesce(country, district, outcode, sector) AS area_code,
    month_no, count(*) AS sales_count, median(price) AS median_price
  FROM mart_market_sales
  GROUP BY GROUPING SETS ((country, month_no), (district, month_no), (outcode, month_no), (sector, month_no))
  HAVING coalesce(country, district, outcode, sector) IS NOT NULL
),
joined AS (
  SELECT
    i.area_level, i.area_code, i.parent_code, i.month_no, i.index, i.repeat_pairs,
    coalesce(m.sales_count, 0)::INTEGER AS sales_count,
    m.median_price
  FROM mart_index_series i
  LEFT JOIN by_month m USING (area_level, area_code, month_no)
),
windowed AS (
  SELECT
    *,
    sum(sales_count) OVER (PARTITION BY area_level, area_code ORDER BY month_no ROWS BETWEEN 11 PRECEDING AND CURRENT ROW)::INTEGER AS sales_12m
  FROM joined
)
SELECT
  area_level,
  area_code,
  strftime(make_date((month_no // 12)::INTEGER, (month_no % 12 + 1)::INTEGER, 1), '%Y-%m') AS month,
  parent_code,
  round(index, 3) AS index,
  sales_count,
  median_price,
  sales_12m,
  repeat_pairs,
  (repeat_pairs >= $min_pairs AND sales_12m >= $min_sales_12m) AS enough_sales
FROM windowed
