-- schools: every GIAS establishment with a position, closed ones included (GET /schools
-- shows open ones unless asked); one row per URN (the latest extract's when several).
-- Within a file the last row wins (rowid keeps file order), so ties never depend on how
-- DuckDB's threads ordered them.
CREATE OR REPLACE TABLE schools AS
SELECT urn, name, phase, type, status, low_age, high_age, pupils, capacity, ofsted_rating,
       ofsted_date::DATE AS ofsted_date, open_date::DATE AS open_date, close_date::DATE AS close_date,
       street, town, postcode, la_name, district_code AS la_code, uprn, lat, lng
FROM stg_gias_schools
WHERE lat IS NOT NULL
QUALIFY row_number() OVER (PARTITION BY urn ORDER BY _file_no DESC, rowid DESC) = 1
ORDER BY urn;
