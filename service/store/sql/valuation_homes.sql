-- valuation_homes: every home with what the sale valuation cascade needs, by UPRN
-- (service/valuation/sale-valuer.ts): areas, position, type, floor area, construction age
-- band and last sale (month number = year × 12 + month − 1).
SELECT
  uprn::DOUBLE AS uprn,
  postcode,
  sector,
  outcode,
  la_code,
  country,
  lat,
  lng,
  property_type,
  floor_area_sqft,
  construction_age,
  last_sold_price::DOUBLE AS last_sold_price,
  (year(last_sold_date) * 12 + month(last_sold_date) - 1)::INTEGER AS last_sold_month
FROM properties
ORDER BY uprn
