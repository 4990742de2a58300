-- mart_recent_sales_priced: sales of the last 24 months with the price brought to the index's
-- last month (Price Paid's latest) with the outcode index (the country's where the outcode has none). A step of its own:
-- with the join to the home's record in the same pipeline the five hash tables did not spill,
-- and the 10M build ran out of its 1 GB limit here (docs/etl.md, "Memory").
CREATE OR REPLACE TABLE mart_recent_sales_priced AS
WITH idx AS (
  SELECT area_level, area_code, month, index FROM price_index_monthly WHERE area_level IN ('outcode', 'country')
),
latest AS (
  SELECT area_level, area_code, arg_max(index, month) AS index_now FROM idx GROUP BY ALL
)
SELECT
  s.uprn, s.price, s.date, s.month_no, s.new_build, s.category,
  s.sector, s.outcode, s.district, s.country,
  s.price * coalesce(lo.index_now / io.index, lc.index_now / ic.index, 1) AS price_now
FROM mart_market_sales s
LEFT JOIN idx io ON io.area_level = 'outcode' AND io.area_code = s.outcode AND io.month = strftime(s.date, '%Y-%m')
LEFT JOIN latest lo ON lo.area_level = 'outcode' AND lo.area_code = s.outcode
LEFT JOIN idx ic ON ic.area_level = 'country' AND ic.area_code = s.country AND ic.month = strftime(s.date, '%Y-%m')
LEFT JOIN latest lc ON lc.area_level = 'country' AND lc.area_code = s.country
WHERE s.month_no > $latest_month_no - 24 AND s.category = 'A'
