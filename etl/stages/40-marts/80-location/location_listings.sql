-- listings: the current listings with the UPRN the address matcher gave each (null when the
-- address allows none) and a position: the matched address's, else the feed's own
-- coordinates, else the postcode's point. `position_source` says which.
CREATE OR REPLACE TABLE listings AS
SELECT
  l.listing_id, l.feed, l.branch_id, l.agent_ref, l.channel, l.status,
  m.uprn, m.method AS match_method,
  coalesce(l.display_address, concat_ws(', ', l.address_1, l.address_2, l.address_3, l.address_4, l.town)) AS address,
  l.address_1, l.address_2, l.address_3, l.address_4, l.town, l.postcode,
  split_part(l.postcode, ' ', 1) AS outcode,
  left(l.postcode, length(l.postcode) - 2) AS sector,
  coalesce(a.lat, l.lat, p.lat) AS lat,
  coalesce(a.lng, l.lng, p.lng) AS lng,
  CASE WHEN a.lat IS NOT NULL THEN 'uprn' WHEN l.lat IS NOT NULL THEN 'feed' WHEN p.lat IS NOT NULL THEN 'postcode' END AS position_source,
  coalesce(a.la_code, p.la_code) AS la_code,
  l.price, l.advertised_rent, l.rent_frequency, l.price_qualifier, l.tenure, l.bedrooms, l.property_type,
  l.new_home, l.created_at::TIMESTAMP::DATE AS listed_date, l.updated_at::TIMESTAMP AS updated_at
FROM listings_current l
LEFT JOIN listing_matches m ON m.id = l.listing_id
LEFT JOIN addresses a ON a.uprn = m.uprn
LEFT JOIN postcode_places p ON p.postcode = l.postcode
ORDER BY l.channel, l.listing_id;
