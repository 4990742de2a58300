-- etl/sources/price_paid/read.ts (bulk layout) and schemas/sources/price-paid.ts PricePaidRow, in SQL:
-- each row's reason is its first failing field in schema order, as validateRow reports it.
-- A doubled quote left in a cell means one (the reader's undoubleQuotes).
CREATE TEMP TABLE native_checked AS
WITH v AS (
  SELECT rowid AS _ord,
    -- A braced upper-case GUID (the bulk file's every id) is its inner 36 characters.
    CASE WHEN regexp_full_match(c0, '\{[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}\}') THEN substr(c0, 2, 36)
      ELSE upper(regexp_replace(js_trim(undouble(c0)), '^\{(.*)\}$', '\1')) END AS transaction_id,
    CASE WHEN regexp_full_match(js_trim(undouble(c1)), '\d+') THEN TRY_CAST(js_trim(undouble(c1)) AS DOUBLE) END AS price_n,
    any_date(undouble(c2)) AS date,
    CASE WHEN js_blank(undouble(c3)) THEN NULL ELSE format_postcode(undouble(c3)) END AS postcode,
    js_trim(undouble(c4)) AS property_type, js_trim(undouble(c5)) AS new_build_raw, js_trim(undouble(c6)) AS tenure,
    opt_str(undouble(c7)) AS paon, opt_str(undouble(c8)) AS saon, opt_str(undouble(c9)) AS street, opt_str(undouble(c10)) AS locality,
    opt_str(undouble(c11)) AS town, opt_str(undouble(c12)) AS district, opt_str(undouble(c13)) AS county,
    js_trim(undouble(c14)) AS category, js_trim(undouble(c15)) AS record_status
  FROM native_raw
)
SELECT _ord,
  CASE
    WHEN NOT regexp_full_match(transaction_id, '[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}') THEN 'invalid:transaction_id'
    WHEN NOT (js_int(price_n) AND price_n > 0) THEN 'invalid:price'
    WHEN date IS NULL THEN 'invalid:date'
    WHEN postcode IS NOT NULL AND NOT postcode_ok(postcode) THEN 'invalid:postcode'
    WHEN property_type NOT IN ('D', 'S', 'T', 'F', 'O') THEN 'invalid:property_type'
    WHEN new_build_raw NOT IN ('Y', 'N') THEN 'invalid:new_build'
    WHEN tenure NOT IN ('F', 'L', 'U') THEN 'invalid:tenure'
    WHEN category NOT IN ('A', 'B') THEN 'invalid:category'
    WHEN record_status NOT IN ('A', 'C', 'D') THEN 'invalid:record_status'
  END AS reason,
  date AS _date,
  transaction_id, TRY_CAST(price_n AS BIGINT) AS price, date, postcode, property_type, new_build_raw = 'Y' AS new_build,
  tenure, paon, saon, street, locality, town, district, county, category, record_status
FROM v
