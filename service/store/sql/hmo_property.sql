-- The fields the HMO valuation needs of one UPRN ($1, BIGINT).
SELECT uprn, postcode, property_type, bedrooms, habitable_rooms, sector, outcode, la_code, country,
       coalesce(article_4, false) AS article_4
FROM properties
WHERE uprn = $1
