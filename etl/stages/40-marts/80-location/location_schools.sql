-- schools: every GIAS establishment with a position, closed ones included (GET /schools
-- shows open ones unless asked); one row per URN (the latest extract's when several).
CREATE OR REPLACE TABLE schools AS
SELECT urn, name, phase, type, status, low_age, high_age, pupils, capacity, ofsted_rating,
       ofsted_date::DATE AS ofsted_date, open_date::DATE AS open_date, close_date::DATE AS close_date,
       street, town, postcode, la_name, district_code AS la_code, uprn, lat, lng
FROM stg_gias_schools
WHERE lat IS NOT NULL
QUALIFY row_number() OVER (PARTITION BY urn ORDER BY _file_no DESC) = 1
ORDER BY urn;
