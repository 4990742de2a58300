-- schemas/sources/fields.ts blank(): missing, or white space only.
CREATE OR REPLACE TEMP MACRO js_blank(s) AS js_trim(s) = ''
