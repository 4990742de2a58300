-- Every crime of the build (crime: the last 12 published months), loaded once per build
-- into the in-memory crime set of GET /crime.
SELECT month, crime_type, lat, lng, la_code, release FROM crime
