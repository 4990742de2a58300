-- mart_repeat_pairs: consecutive sales of the same home, aggregated by area path and the
-- months of the two sales: count and summed log price ratio (all a repeat-sales index needs).
-- Both sales standard (category A), same property type (no conversions), at least 6 months
-- apart (quick resales are mostly refurbishments or distress). Two sales of a home on one day
-- at one price are ordered by transaction_id, and the log ratios are summed exactly over
-- DECIMAL(38, 12): a DOUBLE sum depends on the order DuckDB's threads add rows in (TRY_CAST:
-- a non-finite value is left out rather than failing the build). sum_y stays DECIMAL so the
-- per-area sums over paths (mart_repeat_level_cells) are exact too.
CREATE OR REPLACE TABLE mart_repeat_pairs AS
WITH ordered AS (
  SELECT
    *,
    lag(price) OVER w AS prev_price,
    lag(month_no) OVER w AS prev_month,
    lag(property_type) OVER w AS prev_type,
    lag(category) OVER w AS prev_category
  FROM mart_market_sales
  WHERE uprn IS NOT NULL
  WINDOW w AS (PARTITION BY uprn ORDER BY date, price, transaction_id)
)
SELECT
  sector, outcode, district, country,
  prev_month AS m1,
  month_no AS m2,
  count(*)::INTEGER AS n,
  sum(TRY_CAST(ln(price / prev_price) AS DECIMAL(38, 12))) AS sum_y
FROM ordered
WHERE prev_price IS NOT NULL
  AND month_no - prev_month >= 6
  AND property_type = prev_type
  AND category = 'A' AND prev_category = 'A'
GROUP BY ALL
