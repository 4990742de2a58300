-- JS Number(s): decimal (with exponent) or 0x hex after trimming, '' is 0, anything else NaN (NULL here).
-- DuckDB's own cast is looser (it takes '1_000'), so only the shapes JS accepts reach it; an
-- infinite result stays infinite so that js_finite() refuses it as zod 4 refuses Infinity.
CREATE OR REPLACE TEMP MACRO js_number(s) AS CASE
  WHEN regexp_full_match(js_trim(s), '[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?') THEN TRY_CAST(js_trim(s) AS DOUBLE)
  WHEN regexp_full_match(js_trim(s), '0[xX][0-9a-fA-F]+') THEN TRY_CAST(js_trim(s) AS BIGINT)::DOUBLE
  WHEN js_trim(s) = '' THEN 0::DOUBLE
END
