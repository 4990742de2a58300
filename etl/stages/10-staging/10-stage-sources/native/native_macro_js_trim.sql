-- String.prototype.trim: strips JS white space and line terminators, not only spaces (a
-- constant RE2 pattern: several times faster here than trim() with a set of characters).
-- Most cells have nothing to strip: a match for white space at either end, far cheaper
-- than the replacement, decides whether the replacement runs (EPC's checks at 1M addresses
-- took 5.0 s with the replacement on every cell, 4.0 s so; docs/etl.md, "Native staging").
CREATE OR REPLACE TEMP MACRO js_trim(s) AS CASE
  WHEN s IS NULL THEN ''
  WHEN regexp_matches(s, '^[\s\x{0B}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]|[\s\x{0B}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]$')
  THEN regexp_replace(s,
    '^[\s\x{0B}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]+|[\s\x{0B}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]+$',
    '', 'g')
  ELSE s
END
