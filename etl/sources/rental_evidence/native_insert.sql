INSERT INTO stg_rental_evidence
SELECT evidence_id, let_date, address, postcode, uprn, property_type, bedrooms, let_type, rent_pcm, furnished, source, $file_no
FROM native_checked WHERE reason IS NULL ORDER BY _ord
