-- valuation_homes_rows: every home's sale valuation inputs by UPRN, as the service's
-- valuation_homes reads them (service/store/sql/valuation_homes.sql: the same ids, dense ranks
-- over properties, so the evidence the service builds from the store names the same postcode
-- and area path), and the postcode itself (the answer's). The path and age ids by a join to
-- home_paths and home_ages (30-serving/home-keys: the same ranks) and only the columns read
-- carried into the postcode window: three windows over every column of 30M homes took 233 s.
WITH keyed AS (
  SELECT
    h.uprn, h.lat, h.lng, h.property_type, h.floor_area_sqft, h.last_sold_price, h.last_sold_date, h.postcode, p.path_id, a.age_id,
    dense_rank() OVER (ORDER BY h.postcode) - 1 AS postcode_id
  FROM properties h
  JOIN home_paths p
    ON p.sector IS NOT DISTINCT FROM h.sector AND p.outcode IS NOT DISTINCT FROM h.outcode
   AND p.la_code IS NOT DISTINCT FROM h.la_code AND p.country IS NOT DISTINCT FROM h.country
  JOIN home_ages a ON a.construction_age IS NOT DISTINCT FROM h.construction_age
)
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
FROM keyed
WHERE uprn IS NOT NULL
ORDER BY uprn
