-- Every whole-property let of the build (rent_lets), loaded once per build into memory by the
-- long-term rents endpoint.
SELECT lat, lng, sector, outcode, property_type, bedrooms, rent_pcm, let_date::VARCHAR AS let_date
FROM rent_lets
WHERE let_type = 'whole' AND lat IS NOT NULL
