INSERT INTO stg_price_paid
SELECT transaction_id, price, date, postcode, property_type, new_build, tenure, paon, saon, street, locality, town,
  district, county, category, record_status, $file_no
FROM native_checked WHERE reason IS NULL ORDER BY _ord
