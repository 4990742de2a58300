-- valuation_home_keys: the strings behind valuation_homes' ids (same dense ranks), one row
-- per distinct value: kind 'path' (sector|outcode|la_code|country), 'postcode' or 'age'.
SELECT DISTINCT 'path' AS kind, (dense_rank() OVER (ORDER BY sector, outcode, la_code, country) - 1)::INTEGER AS id,
  sector AS a, outcode AS b, la_code AS c, country AS d
FROM properties
UNION ALL
SELECT DISTINCT 'postcode', (dense_rank() OVER (ORDER BY postcode) - 1)::INTEGER, postcode, NULL, NULL, NULL FROM properties
UNION ALL
SELECT DISTINCT 'age', (dense_rank() OVER (ORDER BY construction_age) - 1)::INTEGER, construction_age, NULL, NULL, NULL FROM properties
