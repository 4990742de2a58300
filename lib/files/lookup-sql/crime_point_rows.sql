-- crime_point_rows: every placed crime of the build (crime, the last 12 published months) by
-- grid cell of 500 m (lib/files/location-sets-files.ts CELL_M; the writer checks every key),
-- for GET /crime's counts within a radius: the ETL writes it as crime-points.rows. A crime
-- without a position has no cell: it is counted by authority (crime_area_rows).
SELECT cell_key(lat, lng, 500) AS cell, lat, lng, month, crime_type
FROM crime
WHERE lat IS NOT NULL AND lng IS NOT NULL
ORDER BY cell, month, crime_type, lat, lng
