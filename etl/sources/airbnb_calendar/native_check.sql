-- etl/sources/airbnb_calendar/read.ts in SQL: cells as written (not trimmed), checked in the reader's order.
CREATE TEMP TABLE native_checked AS
WITH v AS (
  SELECT rowid AS _ord, coalesce(listing_id, '') AS listing_id, coalesce(date, '') AS date,
    coalesce(available, '') AS available, coalesce(price, '') AS price, coalesce(adjusted_price, '') AS adjusted_price,
    coalesce(minimum_nights, '') AS minimum_nights, coalesce(maximum_nights, '') AS maximum_nights
  FROM native_raw
)
SELECT _ord,
  CASE
    WHEN NOT regexp_full_match(listing_id, '\d{1,20}') THEN 'invalid:listing_id'
    WHEN NOT regexp_full_match(date, '\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])') THEN 'invalid:date'
    WHEN available NOT IN ('t', 'f', '') THEN 'invalid:available'
    WHEN price <> '' AND NOT regexp_full_match(price, '[$£]?(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?') THEN 'invalid:price_gbp'
    WHEN adjusted_price <> '' AND NOT regexp_full_match(adjusted_price, '[$£]?(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?') THEN 'invalid:adjusted_price_gbp'
    WHEN minimum_nights <> '' AND NOT (regexp_full_match(minimum_nights, '\d{1,10}') AND minimum_nights::BIGINT <= 2147483647) THEN 'invalid:minimum_nights'
    WHEN maximum_nights <> '' AND NOT (regexp_full_match(maximum_nights, '\d{1,10}') AND maximum_nights::BIGINT <= 2147483647) THEN 'invalid:maximum_nights'
  END AS reason,
  NULL::VARCHAR AS _date,
  listing_id, date, CASE available WHEN 't' THEN true WHEN 'f' THEN false END AS available,
  TRY_CAST(NULLIF(regexp_replace(price, '[$£,]', '', 'g'), '') AS DOUBLE) AS price_gbp,
  TRY_CAST(NULLIF(regexp_replace(adjusted_price, '[$£,]', '', 'g'), '') AS DOUBLE) AS adjusted_price_gbp,
  TRY_CAST(NULLIF(minimum_nights, '') AS INTEGER) AS minimum_nights, TRY_CAST(NULLIF(maximum_nights, '') AS INTEGER) AS maximum_nights
FROM v
