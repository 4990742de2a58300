-- schemas/sources/fields.ts formatPostcode: white space removed, upper case, one space before
-- the last three. A postcode already in that form is returned as it is (most are).
CREATE OR REPLACE TEMP MACRO format_postcode(raw) AS CASE
  WHEN regexp_full_match(raw, '[A-Z]{1,2}[0-9][A-Z0-9]? [0-9][A-Z]{2}') THEN raw
  WHEN length(upper(regexp_replace(raw, '[\s\x{0B}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]+', '', 'g'))) BETWEEN 5 AND 7
  THEN regexp_replace(upper(regexp_replace(raw, '[\s\x{0B}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]+', '', 'g')), '(...)$', ' \1')
  ELSE upper(js_trim(raw))
END
