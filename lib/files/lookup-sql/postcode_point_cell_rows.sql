-- postcode_point_cell_rows: every postcode with a country and a position (the placed rows of
-- postcode_countries_all) by 250 m grid cell, written by the ETL as postcode-points.rows
-- (lib/files/evidence-files.ts): a bare point's country is its nearest postcode's.
SELECT cell_key(lat, lng, 250) AS cell, lat, lng, postcode, country
FROM postcodes WHERE country IS NOT NULL AND lat IS NOT NULL AND lng IS NOT NULL
ORDER BY cell, postcode
