-- How many of search_index_rows' rows each postcode has, in postcode order: where the stage
-- cuts its read into postcode ranges (sort-chunks.ts).
SELECT postcode, count(*)::BIGINT AS n FROM addresses
WHERE lat IS NOT NULL AND lng IS NOT NULL AND postcode IS NOT NULL AND address IS NOT NULL
GROUP BY postcode
ORDER BY postcode
