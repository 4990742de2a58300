-- postcodes: postcode_places with each postcode's sales: those of the homes now at the
-- postcode and those recorded there without a UPRN, over the 5 years to the end of Price Paid's latest month ($window_end).
CREATE OR REPLACE TABLE postcodes AS
WITH sold AS (
  SELECT postcode, median(price) AS median_price_5y, count(*)::INTEGER AS sales_5y
  FROM (
    SELECT a.postcode, s.price, s.date FROM sales s JOIN addresses a USING (uprn)
    -- A sale without a UPRN counts at the postcode it was recorded at (docs/open-data.md).
    UNION ALL SELECT u.postcode, u.price, u.date FROM sales_unmatched u
  )
  WHERE date > $window_end::DATE - INTERVAL 5 YEAR AND date <= $window_end::DATE
  GROUP BY postcode
)
SELECT
  p.postcode, p.outcode, p.sector, p.lat, p.lng, p.country, p.la_code, p.ward, p.terminated, p.date_terminated,
  p.address_count,
  sold.median_price_5y,
  coalesce(sold.sales_5y, 0) AS sales_5y,
  p.source
FROM postcode_places p
LEFT JOIN sold ON sold.postcode = p.postcode
