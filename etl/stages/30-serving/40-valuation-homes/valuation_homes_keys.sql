-- valuation_homes_keys: the area paths and construction age bands behind valuation_homes_rows'
-- ids (the same dense ranks), one row per id: kind 'path' or 'age'.
SELECT DISTINCT 'path' AS kind, (dense_rank() OVER (ORDER BY sector, outcode, la_code, country) - 1)::INTEGER AS id,
  sector AS a, outcode AS b, la_code AS c, country AS d
FROM properties
UNION ALL
SELECT DISTINCT 'age', (dense_rank() OVER (ORDER BY construction_age) - 1)::INTEGER, construction_age, NULL, NULL, NULL FROM properties
ORDER BY kind, id
