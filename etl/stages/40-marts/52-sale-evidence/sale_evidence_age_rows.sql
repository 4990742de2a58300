-- sale_evidence_age_rows: the age band texts by id.
SELECT age_id, construction_age FROM sale_evidence_ages ORDER BY age_id
