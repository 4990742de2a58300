-- etl/sources/epc/read.ts get(): trimmed, the register's "no value" markers as blank.
CREATE OR REPLACE TEMP MACRO epc_get(s) AS CASE WHEN upper(js_trim(s)) IN ('N/A', 'NO DATA!', 'INVALID!') THEN '' ELSE js_trim(s) END
