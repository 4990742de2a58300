-- etl/sources/airbnb_reviews/read.ts in SQL; the summary layout ($detailed false) has no id or reviewer_id.
CREATE TEMP TABLE native_checked AS
WITH src AS (
  SELECT * FROM (SELECT NULL::BIGINT AS _ord, NULL::VARCHAR AS listing_id, NULL::VARCHAR AS date, NULL::VARCHAR AS id,
    NULL::VARCHAR AS reviewer_id WHERE false)
  UNION ALL BY NAME
  SELECT rowid AS _ord, * FROM native_raw
), v AS (
  SELECT _ord, coalesce(listing_id, '') AS listing_id, coalesce(date, '') AS date, coalesce(id, '') AS id,
    coalesce(reviewer_id, '') AS reviewer_id
  FROM src
)
SELECT _ord,
  CASE
    WHEN NOT regexp_full_match(listing_id, '\d{1,20}') THEN 'invalid:listing_id'
    WHEN NOT regexp_full_match(date, '\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])') THEN 'invalid:date'
    WHEN $detailed AND NOT regexp_full_match(id, '\d{1,20}') THEN 'invalid:id'
    WHEN $detailed AND NOT regexp_full_match(reviewer_id, '\d{1,20}') THEN 'invalid:reviewer_id'
  END AS reason,
  date AS _date,
  listing_id, date, CASE WHEN $detailed THEN id END AS id, CASE WHEN $detailed THEN reviewer_id END AS reviewer_id
FROM v
