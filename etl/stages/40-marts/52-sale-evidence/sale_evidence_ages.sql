-- sale_evidence_ages: each distinct construction age band text of the homes with an id (the
-- stage maps each once to the model's age code).
CREATE OR REPLACE TABLE sale_evidence_ages AS
SELECT (row_number() OVER (ORDER BY construction_age) - 1)::INTEGER AS age_id, construction_age
FROM (SELECT DISTINCT construction_age::VARCHAR AS construction_age FROM properties)
