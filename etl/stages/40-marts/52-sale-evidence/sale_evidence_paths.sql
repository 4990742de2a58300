-- sale_evidence_paths: each distinct area path of the homes (sector, outcode, district, country)
-- with an id, so the evidence's rows carry one integer instead of four texts (decoding them was
-- a sixth of the stage at 3M); ids in path order, the same every build.
CREATE OR REPLACE TABLE sale_evidence_paths AS
SELECT (row_number() OVER (ORDER BY sector, outcode, la_code, country) - 1)::INTEGER AS path_id, sector, outcode, la_code, country
FROM (SELECT DISTINCT sector, outcode, la_code, country FROM properties)
