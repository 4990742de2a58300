-- The published addresses the search index holds (located ones only), in postcode order.
SELECT uprn, address, postcode, lat, lng, aliases FROM addresses
LEFT JOIN search_index_aliases USING (uprn)
WHERE lat IS NOT NULL AND lng IS NOT NULL AND postcode IS NOT NULL AND address IS NOT NULL
ORDER BY postcode, address, uprn
