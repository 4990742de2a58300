-- Rows the CSV parser refused, one per line (a row short by two columns is reported twice);
-- of two messages for one line and kind, the smallest, so every build reports the same.
SELECT error_type, min(line)::BIGINT AS line, min(error_message) AS message
FROM native_rejects
GROUP BY line, error_type
ORDER BY line
