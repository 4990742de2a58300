-- mart_market_sales: matched sales up to the end of Price Paid's latest month ($window_end) with the areas of their home and a
-- month number (year × 12 + month − 1), the input of every price mart.
CREATE OR REPLACE TABLE mart_market_sales AS
SELECT
  s.uprn,
  s.transaction_id,
  s.price,
  s.date,
  year(s.date) * 12 + month(s.date) - 1 AS month_no,
  s.property_type,
  s.new_build,
  s.category,
  a.sector,
  a.outcode,
  a.la_code AS district,
  a.country
FROM sales s
JOIN addresses a USING (uprn)
WHERE s.price > 0 AND s.date <= $window_end::DATE
