-- String.prototype.trim: strips JS white space and line terminators, not only spaces.
CREATE OR REPLACE TEMP MACRO js_trim(s) AS trim(coalesce(s, ''),
  ' ' || chr(9) || chr(10) || chr(11) || chr(12) || chr(13) || chr(160) || chr(5760)
  || chr(8192) || chr(8193) || chr(8194) || chr(8195) || chr(8196) || chr(8197) || chr(8198) || chr(8199)
  || chr(8200) || chr(8201) || chr(8202) || chr(8232) || chr(8233) || chr(8239) || chr(8287) || chr(12288) || chr(65279))
