-- The STR marts' figures for the build manifest.
SELECT count(*) AS listings, count(*) FILTER (WHERE active) AS active, count(*) FILTER (WHERE postcode IS NULL) AS without_area,
       any_value(review_source) AS review_source,
       count(*) FILTER (WHERE price_outlier) AS price_outliers,
       count(*) FILTER (WHERE demand_source = 'calendar') AS demand_from_calendar,
       count(*) FILTER (WHERE demand_source = 'listing_availability') AS demand_from_listing_availability,
       (SELECT any_value(source) FROM str_seasonality WHERE la_code = '*') AS seasonality_source
FROM str_listings
