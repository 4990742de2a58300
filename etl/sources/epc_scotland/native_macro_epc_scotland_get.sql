-- etl/sources/epc_scotland/read.ts get(): trimmed, the Scottish register's "no value" markers as blank.
CREATE OR REPLACE TEMP MACRO epc_scotland_get(s) AS CASE WHEN upper(js_trim(s)) IN ('N/A', 'NO DATA!', 'NODATA!', 'INVALID!') THEN '' ELSE js_trim(s) END
