-- The first few refused rows; _ord is the record's place among the file's data records.
SELECT reason, _ord::BIGINT AS record FROM native_checked WHERE reason IS NOT NULL ORDER BY _ord LIMIT 20
