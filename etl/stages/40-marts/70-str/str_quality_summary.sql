-- The STR marts' figures for the build manifest.
SELECT count(*) AS listings, count(*) FILTER (WHERE active) AS active, count(*) FILTER (WHERE postcode IS NULL) AS without_area,
       any_value(review_source) AS review_source
FROM str_listings
