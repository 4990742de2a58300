-- How many rows search_index_rows returns.
SELECT count(*)::BIGINT AS n FROM addresses
WHERE lat IS NOT NULL AND lng IS NOT NULL AND postcode IS NOT NULL AND address IS NOT NULL
