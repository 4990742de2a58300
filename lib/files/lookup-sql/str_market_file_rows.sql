-- str_market_file_rows: every listing of the market set (str_market_listings: those with a
-- position, by id; rn its row there) with its fields as that query gives them, by rn, for the
-- ETL to lay out as lib/files/str-market-file.ts's rows file with its months
-- (str_market_months) and prior year (str_market_prior), merged by rn. The months are
-- not aggregated here: an ordered list() per listing cannot spill, and at 3M national addresses
-- it ran the build's DuckDB out of its memory.
SELECT
  CAST(row_number() OVER (ORDER BY l.id) - 1 AS INTEGER) AS rn,
  CAST(l.lat AS DOUBLE) AS lat, CAST(l.lng AS DOUBLE) AS lng, l.postcode, l.sector, l.outcode, l.country,
  l.listing_type, l.property_type, CAST(l.bedrooms AS INTEGER) AS bedrooms, l.price_tier,
  CAST(l.rating_overall AS DOUBLE) AS rating_overall, CAST(l.rating_cleanliness AS DOUBLE) AS rating_cleanliness,
  CAST(l.rating_accuracy AS DOUBLE) AS rating_accuracy, CAST(l.rating_communication AS DOUBLE) AS rating_communication,
  CAST(l.rating_location AS DOUBLE) AS rating_location, CAST(l.rating_check_in AS DOUBLE) AS rating_check_in,
  CAST(l.rating_value AS DOUBLE) AS rating_value,
  coalesce(l.active, false) AS active, coalesce(l.blocked, false) AS blocked,
  coalesce(l.first_review > l.scrape_date - 30, false) AS new_30d,
  CAST(l.booked_ahead_30d AS DOUBLE) AS booked_ahead_30d, CAST(l.available_next_30d AS DOUBLE) AS available_next_30d,
  CAST(l.stay_nights AS DOUBLE) AS stay_nights,
  COLUMNS('^has_')
FROM str_listings l
WHERE l.lat IS NOT NULL AND l.lng IS NOT NULL
ORDER BY rn
