-- Every postcode with a position and a country: the points a bare lat/lng is placed in a
-- country by (service/location/point-country.ts; the planning layers cover England only).
SELECT lat, lng, country FROM postcodes WHERE lat IS NOT NULL AND lng IS NOT NULL AND country IS NOT NULL
