-- The flags, address and energy rating of one UPRN ($1, BIGINT) for GET /risks/{uprn}:
-- from the properties table, the same result the property record serves (properties copies
-- uprn_flags, computed once by point-in-polygon at ETL time).
SELECT uprn, address, postcode, flood_zone, flood_zone_2, flood_zone_3, conservation_area,
       article_4, listed_building, epc_current_rating, epc_potential_rating
FROM properties
WHERE uprn = $1
