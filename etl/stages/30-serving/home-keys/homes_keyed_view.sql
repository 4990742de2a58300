-- homes_keyed_view: each home's columns the sale valuer's files read, with its area path and age
-- band ids (home_paths, home_ages) and its postcode id: the dense rank over every home's postcode
-- that the service's valuation_homes.sql gives. A view: each stage's query reads it once.
CREATE OR REPLACE VIEW homes_keyed AS
SELECT
  h.uprn, h.lat, h.lng, h.property_type, h.floor_area_sqft, h.last_sold_price, h.last_sold_date, h.postcode, p.path_id, a.age_id,
  dense_rank() OVER (ORDER BY h.postcode) - 1 AS postcode_id
FROM properties h
JOIN home_paths p
  ON p.sector IS NOT DISTINCT FROM h.sector AND p.outcode IS NOT DISTINCT FROM h.outcode
 AND p.la_code IS NOT DISTINCT FROM h.la_code AND p.country IS NOT DISTINCT FROM h.country
JOIN home_ages a ON a.construction_age IS NOT DISTINCT FROM h.construction_age
