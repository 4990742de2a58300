-- The addresses the records to match (match_in) can meet within their outward codes, in
-- outcode order with each outcode's group number (numbered as in match_groups_inputs): those
-- in a postcode some record is in, and those on a street (and post town) some record of that
-- outcode names (match_street_keys). The matcher looks candidates up by postcode and by
-- street and town only, so the rest of an outcode cannot change a match.
WITH g AS (SELECT outcode, row_number() OVER (ORDER BY outcode) AS g FROM (SELECT DISTINCT split_part(postcode, ' ', 1) AS outcode FROM addresses WHERE postcode IS NOT NULL)),
wanted AS (
  SELECT uprn FROM addresses WHERE postcode IN (SELECT postcode FROM match_in)
  UNION
  -- The street keys the records name first, then their addresses: joined the other way round
  -- (keys to addresses, then the outcode test) DuckDB took 16 s at 1M addresses, this 0.2 s.
  SELECT a.uprn
  FROM (SELECT k.uprn, i.outcode FROM (SELECT DISTINCT outcode, street_town FROM match_in WHERE street_town IS NOT NULL) i
        JOIN match_street_keys k USING (street_town)) ki
  JOIN addresses a ON a.uprn = ki.uprn AND split_part(a.postcode, ' ', 1) = ki.outcode
)
SELECT g.g, a.uprn, a.postcode, a.post_town, a.sub_building, a.building_name, a.building_number, a.street_name
FROM addresses a JOIN g ON g.outcode = split_part(a.postcode, ' ', 1)
WHERE a.uprn IN (SELECT uprn FROM wanted)
ORDER BY g.g
