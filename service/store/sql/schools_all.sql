-- Every school with a position (schools), loaded once per build for GET /schools.
SELECT urn, name, phase, type, status, low_age, high_age, pupils, capacity, ofsted_rating,
       strftime(ofsted_date, '%Y-%m-%d') AS ofsted_date, postcode, lat, lng
FROM schools ORDER BY urn
