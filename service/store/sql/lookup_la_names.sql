-- lookup_la_names: local authority names by GSS code, from UK HPI (the only loaded source that names them).
SELECT area_code, arg_max(region_name, month) AS name
FROM ukhpi_monthly
WHERE area_code IS NOT NULL AND region_name IS NOT NULL
GROUP BY area_code
