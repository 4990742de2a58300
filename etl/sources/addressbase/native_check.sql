-- etl/sources/addressbase/read.ts and schemas/sources/addressbase.ts AddressBaseRow, in SQL.
-- Optional columns the file lacks come in as NULL (the first SELECT).
CREATE TEMP TABLE native_checked AS
WITH src AS (
  SELECT * FROM (SELECT NULL::BIGINT AS _ord, NULL::VARCHAR AS uprn, NULL::VARCHAR AS parent_uprn,
    NULL::VARCHAR AS classification_code, NULL::VARCHAR AS easting, NULL::VARCHAR AS northing, NULL::VARCHAR AS lat,
    NULL::VARCHAR AS lng, NULL::VARCHAR AS single_line_address, NULL::VARCHAR AS organisation, NULL::VARCHAR AS sub_building,
    NULL::VARCHAR AS building_name, NULL::VARCHAR AS building_number, NULL::VARCHAR AS street_name, NULL::VARCHAR AS locality,
    NULL::VARCHAR AS town_name, NULL::VARCHAR AS post_town, NULL::VARCHAR AS postcode, NULL::VARCHAR AS gss_code,
    NULL::VARCHAR AS change_code WHERE false)
  UNION ALL BY NAME
  SELECT rowid AS _ord, * FROM native_raw
), v AS (
  SELECT *, js_number(uprn) AS uprn_n, js_number(parent_uprn) AS parent_n, js_number(easting) AS e_n,
    js_number(northing) AS n_n, js_number(lat) AS lat_n, js_number(lng) AS lng_n, format_postcode(coalesce(postcode, '')) AS postcode_f
  FROM src
)
SELECT _ord,
  CASE
    WHEN js_blank(uprn) OR NOT (js_int(uprn_n) AND uprn_n > 0 AND uprn_n <= 999999999999) THEN 'invalid:uprn'
    WHEN NOT js_blank(parent_uprn) AND NOT (js_int(parent_n) AND parent_n > 0 AND parent_n <= 999999999999) THEN 'invalid:parent_uprn'
    WHEN js_blank(classification_code) THEN 'invalid:classification_code'
    WHEN js_blank(easting) OR NOT (js_finite(e_n) AND e_n BETWEEN 0 AND 700000) THEN 'invalid:easting'
    WHEN js_blank(northing) OR NOT (js_finite(n_n) AND n_n BETWEEN 0 AND 1300000) THEN 'invalid:northing'
    WHEN js_blank(lat) OR NOT (js_finite(lat_n) AND lat_n BETWEEN 49 AND 61) THEN 'invalid:lat'
    WHEN js_blank(lng) OR NOT (js_finite(lng_n) AND lng_n BETWEEN -9 AND 2.5) THEN 'invalid:lng'
    WHEN js_blank(single_line_address) THEN 'invalid:single_line_address'
    WHEN NOT postcode_ok(postcode_f) THEN 'invalid:postcode'
    WHEN NOT js_blank(change_code) AND change_code NOT IN ('I', 'U', 'D') THEN 'invalid:change_code'
  END AS reason,
  NULL::VARCHAR AS _date,
  TRY_CAST(uprn_n AS BIGINT) AS uprn, CASE WHEN js_blank(parent_uprn) THEN NULL ELSE TRY_CAST(parent_n AS BIGINT) END AS parent_uprn,
  js_trim(classification_code) AS classification_code, e_n AS easting, n_n AS northing, lat_n AS lat, lng_n AS lng,
  js_trim(single_line_address) AS single_line_address, opt_str(organisation) AS organisation, opt_str(sub_building) AS sub_building,
  opt_str(building_name) AS building_name, opt_str(building_number) AS building_number, opt_str(street_name) AS street_name,
  opt_str(locality) AS locality, opt_str(town_name) AS town_name, opt_str(post_town) AS post_town, postcode_f AS postcode,
  opt_str(gss_code) AS gss_code, CASE WHEN js_blank(change_code) THEN NULL ELSE change_code END AS change_code
FROM v
