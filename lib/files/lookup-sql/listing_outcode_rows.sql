-- listing_outcode_rows: the current listings by outcode, for GET /listings and GET
-- /sourcing/deals in an outcode: the ETL writes it as listings-outcodes.rows. The listings the
-- service serves (service/store/sql/listings_all.sql: those with a latitude).
SELECT outcode, listing_id, agent_ref, channel, status, uprn, address, postcode, sector, lat, lng, la_code,
       price, price_qualifier, bedrooms, property_type, tenure, strftime(listed_date, '%Y-%m-%d') AS listed_date,
       strftime(updated_at, '%Y-%m-%dT%H:%M:%S') AS updated_at
FROM listings
WHERE lat IS NOT NULL
ORDER BY outcode, listing_id
