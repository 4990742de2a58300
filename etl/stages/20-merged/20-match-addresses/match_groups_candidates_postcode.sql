-- The addresses in a postcode some record to match (match_in) is in, in outcode order with
-- each outcode's group number (numbered as in match_groups_inputs): all the postcode pass
-- needs (match-job.ts), as a record its postcode's addresses decide never meets a street.
WITH g AS (SELECT outcode, row_number() OVER (ORDER BY outcode) AS g FROM (SELECT DISTINCT split_part(postcode, ' ', 1) AS outcode FROM addresses WHERE postcode IS NOT NULL))
SELECT g.g, a.uprn, a.postcode, a.post_town, a.sub_building, a.building_name, a.building_number, a.street_name
FROM addresses a JOIN g ON g.outcode = split_part(a.postcode, ' ', 1)
WHERE a.postcode IN (SELECT postcode FROM match_in)
ORDER BY g.g
