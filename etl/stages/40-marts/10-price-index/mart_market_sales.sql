-- mart_market_sales: sales up to the end of Price Paid's latest month ($window_end), matched and unmatched (placed by postcode), with the areas of their home and a
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
-- A sale no UPRN could be given (on an open-data build, every home without a certificate:
-- docs/open-data.md) still belongs to its area's statistics, placed by the postcode it was
-- recorded at (ONSPD's authority and country). It has no UPRN, so it is in no repeat pair.
UNION ALL
SELECT
  NULL::BIGINT AS uprn,
  u.transaction_id,
  u.price,
  u.date,
  year(u.date) * 12 + month(u.date) - 1 AS month_no,
  u.property_type,
  u.new_build,
  u.category,
  left(u.postcode, length(u.postcode) - 2) AS sector,
  split_part(u.postcode, ' ', 1) AS outcode,
  pc.oslaua AS district,
  pc.country
FROM sales_unmatched u
JOIN (
  SELECT pcds, oslaua, country FROM stg_onspd
  QUALIFY row_number() OVER (PARTITION BY pcds ORDER BY _file_no DESC, rowid DESC) = 1
) pc ON pc.pcds = u.postcode
WHERE u.price > 0 AND u.date <= $window_end::DATE AND pc.oslaua IS NOT NULL
