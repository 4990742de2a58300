-- home_paths_table: each distinct area path of the homes (sector, outcode, district, country)
-- with its id: the dense rank the service's valuation_homes.sql gives it (row_number over the
-- distinct paths in the same order), so a table of homes joins to one integer instead of
-- ranking every home in a window of its own, and a reader decodes four texts a path, not a home.
CREATE OR REPLACE TABLE home_paths AS
SELECT (row_number() OVER (ORDER BY sector, outcode, la_code, country) - 1)::INTEGER AS path_id, sector, outcode, la_code, country
FROM (SELECT DISTINCT sector, outcode, la_code, country FROM properties)
