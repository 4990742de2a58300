-- A reproducible sample of $k bench addresses with their structured parts, to type queries from.
SELECT uprn, address, sub_building, building_name, building_number, street_name, locality, town_name, postcode
FROM addresses
ORDER BY hash(uprn + $seed::BIGINT)
LIMIT $k::BIGINT
