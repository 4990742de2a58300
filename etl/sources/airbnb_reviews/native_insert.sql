INSERT INTO stg_airbnb_reviews SELECT listing_id, date, id, reviewer_id, $file_no FROM native_checked WHERE reason IS NULL ORDER BY _ord
