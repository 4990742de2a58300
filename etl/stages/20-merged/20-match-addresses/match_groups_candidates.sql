-- The address base in outward-code order (split from the postcode as the matcher splits it)
-- with each outcode's group number (numbered as in match_groups_inputs), only for outcodes
-- some record to match is in.
WITH g AS (SELECT outcode, row_number() OVER (ORDER BY outcode) AS g FROM (SELECT DISTINCT split_part(postcode, ' ', 1) AS outcode FROM addresses WHERE postcode IS NOT NULL))
SELECT g.g, a.uprn, a.postcode, a.post_town, a.sub_building, a.building_name, a.building_number, a.street_name
FROM addresses a JOIN g ON g.outcode = split_part(a.postcode, ' ', 1)
WHERE g.outcode IN (SELECT outcode FROM match_in)
ORDER BY g.g
