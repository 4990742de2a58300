-- Every whole-property let of the build (rent_lets), loaded once per build into memory by the
-- long-term rents and rental valuation endpoints; with the let home's UPRN and floor area
-- (the valuation scales each let to the valued home's size).
SELECT l.lat, l.lng, l.sector, l.outcode, l.property_type, l.bedrooms, l.rent_pcm, l.let_date::VARCHAR AS let_date,
       l.uprn::DOUBLE AS uprn, p.floor_area_sqft
FROM rent_lets l LEFT JOIN properties p ON p.uprn = l.uprn
WHERE l.let_type = 'whole' AND l.lat IS NOT NULL
