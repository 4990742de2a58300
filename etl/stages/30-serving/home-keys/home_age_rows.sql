-- home_age_rows: the age band texts by id.
SELECT age_id, construction_age FROM home_ages ORDER BY age_id
