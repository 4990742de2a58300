-- Every HMO licence (hmo_licences), loaded once per build for GET /hmo/licences.
SELECT licence_reference, register, address, postcode, outcode, uprn, max_occupants, households, storeys,
       strftime(valid_from, '%Y-%m-%d') AS valid_from, strftime(valid_to, '%Y-%m-%d') AS valid_to, status,
       lat, lng, position_source, register_as_of
FROM hmo_licences ORDER BY register, licence_reference
