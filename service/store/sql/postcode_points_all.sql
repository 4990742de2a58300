-- Every postcode with a position (postcodes), in postcode order: loaded once per build into a
-- compact in-memory table by the long-term rents and development GDV endpoints.
SELECT postcode, lat, lng FROM postcodes WHERE lat IS NOT NULL AND length(postcode) <= 8 ORDER BY postcode
