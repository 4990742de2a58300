-- search_index_rows for the postcodes from $lo (inclusive) to $hi (exclusive), either end open
-- when null: read range by range, the rows come in the same order while each sort stays small
-- (sort-chunks.ts).
SELECT uprn, address, postcode, lat, lng, aliases FROM addresses
LEFT JOIN search_index_aliases USING (uprn)
WHERE lat IS NOT NULL AND lng IS NOT NULL AND postcode IS NOT NULL AND address IS NOT NULL
  AND coalesce(postcode >= $lo, TRUE) AND coalesce(postcode < $hi, TRUE)
ORDER BY postcode, address, uprn
