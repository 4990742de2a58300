-- The records the street fallback decides (match_deferred) in street-and-town order, each
-- with its street's group number (numbered as in match_street_candidates).
WITH g AS (SELECT street_town, row_number() OVER (ORDER BY street_town) AS g FROM (SELECT DISTINCT street_town FROM match_deferred))
SELECT g.g, d.src, d.id, d.postcode, d.town, d.p1, d.p2, d.p3
FROM match_deferred d JOIN g USING (street_town)
ORDER BY g.g
