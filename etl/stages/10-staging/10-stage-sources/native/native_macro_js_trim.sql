-- String.prototype.trim: strips JS white space and line terminators, not only spaces (a
-- constant RE2 pattern: several times faster here than trim() with a set of characters).
CREATE OR REPLACE TEMP MACRO js_trim(s) AS regexp_replace(coalesce(s, ''),
  '^[\s\x{0B}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]+|[\s\x{0B}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]+$',
  '', 'g')
