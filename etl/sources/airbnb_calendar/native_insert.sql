INSERT INTO stg_airbnb_calendar
SELECT listing_id, date, available, price_gbp, adjusted_price_gbp, minimum_nights, maximum_nights, $file_no
FROM native_checked WHERE reason IS NULL ORDER BY _ord
