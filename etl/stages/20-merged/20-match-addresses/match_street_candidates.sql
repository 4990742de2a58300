-- The addresses on the streets the deferred records name (same normalised street and post
-- town: match_street_keys), in the same group order as match_street_inputs.
WITH g AS (SELECT street_town, row_number() OVER (ORDER BY street_town) AS g FROM (SELECT DISTINCT street_town FROM match_deferred))
SELECT g.g, a.uprn, a.postcode, a.post_town, a.sub_building, a.building_name, a.building_number, a.street_name
FROM match_street_keys k JOIN g USING (street_town) JOIN addresses a USING (uprn)
ORDER BY g.g
