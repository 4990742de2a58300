-- valuation_homes_rows: every home's sale valuation inputs by UPRN, as the service's
-- valuation_homes reads them (service/store/sql/valuation_homes.sql: the same ids, dense ranks
-- over properties, so the evidence the service builds from the store names the same postcode
-- and area path), and the postcode itself (the answer's). From homes_keyed (30-serving/home-keys:
-- the path and age ids by a join, one window for the postcode id, only the columns read): three
-- windows over every column of 30M homes took 233 s.
SELECT
  uprn::DOUBLE AS uprn,
  lat::DOUBLE AS lat,
  lng::DOUBLE AS lng,
  CASE property_type WHEN 'Detached' THEN 0 WHEN 'Semi-Detached' THEN 1 WHEN 'Terraced' THEN 2 WHEN 'Flat' THEN 3 ELSE 255 END::DOUBLE AS type_code,
  floor_area_sqft::DOUBLE AS floor_area_sqft,
  last_sold_price::DOUBLE AS last_sold_price,
  (year(last_sold_date) * 12 + month(last_sold_date) - 1)::DOUBLE AS last_sold_month,
  path_id::DOUBLE AS path_id,
  postcode_id::DOUBLE AS postcode_id,
  age_id::DOUBLE AS age_id,
  postcode::VARCHAR AS postcode
FROM homes_keyed
WHERE uprn IS NOT NULL
ORDER BY uprn
