-- etl/sources/rental_evidence/read.ts and schemas/sources/rents.ts RentalEvidenceRow, in SQL: every
-- cell trimmed as the reader trims it, each row's reason its first failing field in schema
-- order, then the room-let rule (a zod refine: it runs only when every field passed), then a
-- repeated evidence_id among the valid rows (the first in the file wins).
CREATE TEMP TABLE native_checked AS
WITH t AS (
  SELECT rowid AS _ord, js_trim(evidence_id) AS evidence_id, js_trim(let_date) AS let_date, js_trim(address) AS address,
    js_trim(postcode) AS postcode, js_trim(uprn) AS uprn, js_trim(property_type) AS property_type,
    js_trim(bedrooms) AS bedrooms, js_trim(let_type) AS let_type, js_trim(rent_pcm) AS rent_pcm,
    js_trim(furnished) AS furnished, js_trim(source) AS source
  FROM native_raw
), v AS (
  SELECT *,
    format_postcode(postcode) AS postcode_f,
    CASE WHEN uprn <> '' THEN js_number(uprn) END AS uprn_n,
    CASE WHEN bedrooms <> '' THEN js_number(bedrooms) END AS bedrooms_n,
    CASE WHEN rent_pcm <> '' THEN js_number(rent_pcm) END AS rent_n
  FROM t
), checked AS (
  SELECT *,
    CASE
      WHEN evidence_id = '' THEN 'invalid:evidence_id'
      WHEN NOT regexp_full_match(let_date, '\d{4}-\d{2}-\d{2}') OR strftime(TRY_CAST(let_date AS DATE), '%Y-%m-%d') IS DISTINCT FROM let_date
        THEN 'invalid:let_date'
      WHEN address = '' THEN 'invalid:address'
      WHEN NOT postcode_ok(postcode_f) THEN 'invalid:postcode'
      WHEN uprn <> '' AND NOT (js_int(uprn_n) AND uprn_n > 0 AND uprn_n <= 999999999999) THEN 'invalid:uprn'
      WHEN property_type NOT IN ('house', 'flat') THEN 'invalid:property_type'
      WHEN NOT (js_int(bedrooms_n) AND bedrooms_n >= 0 AND bedrooms_n <= 20) THEN 'invalid:bedrooms'
      WHEN let_type NOT IN ('whole', 'room') THEN 'invalid:let_type'
      WHEN NOT (js_finite(rent_n) AND rent_n > 0 AND rent_n <= 100000) THEN 'invalid:rent_pcm'
      WHEN furnished <> '' AND furnished NOT IN ('furnished', 'part', 'unfurnished') THEN 'invalid:furnished'
      WHEN let_type = 'room' AND bedrooms_n < 2 THEN 'invalid:bedrooms'
    END AS field_reason
  FROM v
)
SELECT _ord,
  coalesce(field_reason, CASE WHEN row_number() OVER (PARTITION BY field_reason IS NULL, evidence_id ORDER BY _ord) > 1
    THEN 'duplicate:evidence_id' END) AS reason,
  let_date AS _date,
  evidence_id, let_date, address, postcode_f AS postcode, TRY_CAST(uprn_n AS BIGINT) AS uprn, property_type,
  TRY_CAST(bedrooms_n AS INTEGER) AS bedrooms, let_type, rent_n AS rent_pcm, nullif(furnished, '') AS furnished,
  nullif(source, '') AS source
FROM checked
