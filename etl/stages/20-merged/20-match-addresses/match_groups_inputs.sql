-- The records to match (match_in) in outward-code order, each with its outcode's group
-- number (numbered as in match_groups_candidates); records whose outcode has no address
-- come last with a null group.
WITH g AS (SELECT outcode, row_number() OVER (ORDER BY outcode) AS g FROM (SELECT DISTINCT split_part(postcode, ' ', 1) AS outcode FROM addresses WHERE postcode IS NOT NULL))
SELECT g.g, i.src, i.id, i.postcode, i.town, i.p1, i.p2, i.p3, i.outcode, i.street_town
FROM match_in i LEFT JOIN g USING (outcode)
ORDER BY g.g NULLS LAST
