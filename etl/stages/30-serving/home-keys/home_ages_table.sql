-- home_ages_table: each distinct construction age band text of the homes with its id (the
-- dense rank valuation_homes.sql gives it).
CREATE OR REPLACE TABLE home_ages AS
SELECT (row_number() OVER (ORDER BY construction_age) - 1)::INTEGER AS age_id, construction_age
FROM (SELECT DISTINCT construction_age FROM properties)
