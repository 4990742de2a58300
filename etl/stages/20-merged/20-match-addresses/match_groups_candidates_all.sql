-- The whole address base in outward-code order with each outcode's group number (numbered as
-- in match_groups_inputs); addresses without a postcode last. Read when the street keys are
-- still to be written, which needs every address once.
WITH g AS (SELECT outcode, row_number() OVER (ORDER BY outcode) AS g FROM (SELECT DISTINCT split_part(postcode, ' ', 1) AS outcode FROM addresses WHERE postcode IS NOT NULL))
SELECT g.g, a.uprn, a.postcode, a.post_town, a.sub_building, a.building_name, a.building_number, a.street_name
FROM addresses a LEFT JOIN g ON g.outcode = split_part(a.postcode, ' ', 1)
ORDER BY g.g NULLS LAST
