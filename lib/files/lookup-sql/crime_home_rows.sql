-- crime_home_rows: postcodes with addresses and a position by grid cell of 500 m, for GET
-- /crime's addresses within a radius and a bare point's authority (its nearest postcode's):
-- the ETL writes it as crime-homes.rows.
SELECT cell_key(lat, lng, 500) AS cell, lat, lng, address_count, la_code
FROM postcodes
WHERE lat IS NOT NULL AND lng IS NOT NULL AND address_count > 0
ORDER BY cell, postcode
