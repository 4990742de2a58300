-- etl/sources/os_uprn/read.ts and schemas/sources/os-uprn.ts OsUprnRow, in SQL (a blank cell is no number).
CREATE TEMP TABLE native_checked AS
WITH v AS (
  SELECT rowid AS _ord, uprn, x, y, lat, lng, js_number(uprn) AS uprn_n, js_number(x) AS x_n, js_number(y) AS y_n,
    js_number(lat) AS lat_n, js_number(lng) AS lng_n
  FROM native_raw
)
SELECT _ord,
  CASE
    WHEN js_blank(uprn) OR NOT (js_int(uprn_n) AND uprn_n > 0 AND uprn_n <= 999999999999) THEN 'invalid:uprn'
    WHEN js_blank(x) OR NOT (js_finite(x_n) AND x_n BETWEEN 0 AND 700000) THEN 'invalid:x'
    WHEN js_blank(y) OR NOT (js_finite(y_n) AND y_n BETWEEN 0 AND 1300000) THEN 'invalid:y'
    WHEN js_blank(lat) OR NOT (js_finite(lat_n) AND lat_n BETWEEN 49 AND 61) THEN 'invalid:lat'
    WHEN js_blank(lng) OR NOT (js_finite(lng_n) AND lng_n BETWEEN -9 AND 2.5) THEN 'invalid:lng'
  END AS reason,
  NULL::VARCHAR AS _date,
  TRY_CAST(uprn_n AS BIGINT) AS uprn, x_n AS x, y_n AS y, lat_n AS lat, lng_n AS lng
FROM v
