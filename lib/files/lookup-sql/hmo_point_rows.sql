-- hmo_point_rows: the HMO licences placed at their address or postcode (hmo_licences) by grid
-- cell of 500 m, for GET /hmo/licences within a radius: the ETL writes it as hmo-points.rows.
SELECT cell_key(lat, lng, 500) AS cell, licence_reference, register, address, postcode, outcode, uprn, max_occupants, households, storeys,
       strftime(valid_from, '%Y-%m-%d') AS valid_from, strftime(valid_to, '%Y-%m-%d') AS valid_to, status,
       lat, lng, position_source
FROM hmo_licences
WHERE lat IS NOT NULL AND lng IS NOT NULL
ORDER BY cell, register, licence_reference
