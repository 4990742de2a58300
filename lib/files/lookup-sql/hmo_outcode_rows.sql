-- hmo_outcode_rows: the HMO licences by their postcode's outcode (placed or not), for GET
-- /hmo/licences in an outcode: the ETL writes it as hmo-outcodes.rows.
SELECT outcode, licence_reference, register, address, postcode, uprn, max_occupants, households, storeys,
       strftime(valid_from, '%Y-%m-%d') AS valid_from, strftime(valid_to, '%Y-%m-%d') AS valid_to, status,
       lat, lng, position_source
FROM hmo_licences
WHERE outcode IS NOT NULL AND outcode <> ''
ORDER BY outcode, register, licence_reference
