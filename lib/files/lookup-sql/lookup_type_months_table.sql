-- lookup_type_months_table: monthly median price and count of each property type's sales (Price Paid
-- type code) per sector, outcode and local authority (district), keyed "level:code:type": made
-- once by the ETL (or when an older build opens), then read as lookup_type_months_rows.
CREATE TABLE lk_type_months AS
WITH by_level AS (
  UNPIVOT (SELECT date, price, property_type, sector, outcode, la_code AS district FROM lk_sales)
  ON sector, outcode, district INTO NAME level VALUE code
)
SELECT level || ':' || code || ':' || property_type AS key, strftime(date, '%Y-%m') AS month,
       (date_trunc('month', date))::DATE AS month_start, median(price) AS median_price, count(*)::INTEGER AS sales
FROM by_level
GROUP BY ALL
ORDER BY key, month
