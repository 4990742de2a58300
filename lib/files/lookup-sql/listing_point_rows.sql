-- listing_point_rows: every current listing with a position (listings) by grid cell of 500 m,
-- for GET /listings and GET /sourcing/deals within a radius: the ETL writes it as
-- listings-points.rows. Columns as service/store/sql/listings_all.sql gives them.
SELECT cell_key(lat, lng, 500) AS cell, listing_id, agent_ref, channel, status, uprn, address, postcode, outcode, sector, lat, lng, la_code,
       price, price_qualifier, bedrooms, property_type, tenure, strftime(listed_date, '%Y-%m-%d') AS listed_date,
       strftime(updated_at, '%Y-%m-%dT%H:%M:%S') AS updated_at
FROM listings
WHERE lat IS NOT NULL AND lng IS NOT NULL
ORDER BY cell, listing_id
