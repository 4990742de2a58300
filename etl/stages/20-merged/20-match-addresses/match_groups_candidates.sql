-- The addresses the records to match (match_in) can meet within their outward codes, in
-- outcode order with each outcode's group number (numbered as in match_groups_inputs): those
-- in a postcode some record is in, and those on a street (and post town) some record of that
-- outcode names (match_street_keys). The matcher looks candidates up by postcode and by
-- street and town only, so the rest of an outcode cannot change a match.
WITH g AS (SELECT outcode, row_number() OVER (ORDER BY outcode) AS g FROM (SELECT DISTINCT split_part(postcode, ' ', 1) AS outcode FROM addresses WHERE postcode IS NOT NULL)),
wanted AS (
  SELECT uprn FROM addresses WHERE postcode IN (SELECT postcode FROM match_in)
  UNION
  SELECT k.uprn FROM match_street_keys k JOIN addresses a USING (uprn)
  JOIN (SELECT DISTINCT outcode, street_town FROM match_in WHERE street_town IS NOT NULL) i
    ON i.street_town = k.street_town AND i.outcode = split_part(a.postcode, ' ', 1)
)
SELECT g.g, a.uprn, a.postcode, a.post_town, a.sub_building, a.building_name, a.building_number, a.street_name
FROM addresses a JOIN g ON g.outcode = split_part(a.postcode, ' ', 1)
WHERE a.uprn IN (SELECT uprn FROM wanted)
ORDER BY g.g
