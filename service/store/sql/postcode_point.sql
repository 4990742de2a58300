-- postcode_point: where a full postcode is (canonical "AA9 9AA" form) and its LA.
SELECT postcode, lat, lng, la_code, sector, terminated
FROM postcodes
WHERE postcode = $1
