-- schemas/sources/fields.ts POSTCODE_RE.
CREATE OR REPLACE TEMP MACRO postcode_ok(p) AS coalesce(regexp_full_match(p, '[A-Z]{1,2}[0-9][A-Z0-9]? [0-9][A-Z]{2}'), false)
