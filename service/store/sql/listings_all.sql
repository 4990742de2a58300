-- Every current listing with a position (listings), loaded once per build for GET /listings
-- and GET /sourcing/deals.
SELECT listing_id, agent_ref, channel, status, uprn, address, postcode, outcode, sector, lat, lng, la_code,
       price, price_qualifier, bedrooms, property_type, tenure, strftime(listed_date, '%Y-%m-%d') AS listed_date,
       strftime(updated_at, '%Y-%m-%dT%H:%M:%S') AS updated_at
FROM listings WHERE lat IS NOT NULL ORDER BY listing_id
