-- schemas/sources/fields.ts toIsoDate, first half: YYYY-MM-DD[ HH:MM[:SS]] or DD/MM/YYYY[ HH:MM[:SS]] → YYYY-MM-DD text.
CREATE OR REPLACE TEMP MACRO date_shape(v) AS CASE
  WHEN regexp_full_match(js_trim(v), '\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?)?') THEN substr(js_trim(v), 1, 10)
  WHEN regexp_full_match(js_trim(v), '\d{2}/\d{2}/\d{4}( \d{2}:\d{2}(:\d{2})?)?')
  THEN substr(js_trim(v), 7, 4) || '-' || substr(js_trim(v), 4, 2) || '-' || substr(js_trim(v), 1, 2)
END
