-- Postcodes with addresses and a position: the addresses a radius holds, and a point's
-- local authority (its nearest postcode's), for GET /crime.
SELECT postcode, lat, lng, address_count, la_code FROM postcodes
WHERE lat IS NOT NULL AND address_count > 0
