-- Every postcode with a country: a bare lat/lng is placed in a country by the nearest one with
-- a position (the planning layers cover England only), an outcode or sector by the countries
-- of its postcodes (which sources cover it: service/domain/coverage.ts).
SELECT postcode, lat, lng, country FROM postcodes WHERE country IS NOT NULL
