-- Rows the CSV parser refused, one per line (a row short by two columns is reported twice).
SELECT error_type, min(line)::BIGINT AS line, any_value(error_message) AS message
FROM native_rejects
GROUP BY line, error_type
ORDER BY line
