-- valuation_homes: every home with what the sale valuation cascade needs, by UPRN
-- (service/valuers/sale-valuer.ts), numbers only (a million rows load in about a second):
-- position, type code (0 Detached, 1 Semi-Detached, 2 Terraced, 3 Flat, 255 unknown),
-- floor area, last sale (month number = year × 12 + month − 1), and ids into
-- valuation_home_keys for the area path, postcode and construction age band.
WITH keyed AS (
  SELECT
    *,
    dense_rank() OVER (ORDER BY sector, outcode, la_code, country) - 1 AS path_id,
    dense_rank() OVER (ORDER BY postcode) - 1 AS postcode_id,
    dense_rank() OVER (ORDER BY construction_age) - 1 AS age_id
  FROM properties
)
SELECT
  uprn::DOUBLE AS uprn,
  lat,
  lng,
  CASE property_type WHEN 'Detached' THEN 0 WHEN 'Semi-Detached' THEN 1 WHEN 'Terraced' THEN 2 WHEN 'Flat' THEN 3 ELSE 255 END::INTEGER AS type_code,
  floor_area_sqft::DOUBLE AS floor_area_sqft,
  last_sold_price::DOUBLE AS last_sold_price,
  (year(last_sold_date) * 12 + month(last_sold_date) - 1)::INTEGER AS last_sold_month,
  path_id::INTEGER AS path_id,
  postcode_id::INTEGER AS postcode_id,
  age_id::INTEGER AS age_id
FROM keyed
ORDER BY uprn
