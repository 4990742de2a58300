-- mart_recent_sales: the last 24 months' sales, priced now (mart_recent_sales_priced), with the
-- home's current record (type, floor area, bedrooms): one hash join, which DuckDB can spill.
CREATE OR REPLACE TABLE mart_recent_sales AS
SELECT
  s.uprn, s.price, s.date, s.month_no, s.new_build, s.category,
  s.sector, s.outcode, s.district, s.country,
  p.property_type,
  p.floor_area_sqft,
  least(p.bedrooms, 4) AS bedrooms,
  s.price_now
FROM mart_recent_sales_priced s
JOIN properties p USING (uprn)
