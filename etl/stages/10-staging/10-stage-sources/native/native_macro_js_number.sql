-- JS Number(s): decimal (with exponent), 0x hex, 0b binary or 0o octal after trimming, '' is
-- 0, anything else NaN (NULL here). DuckDB's own cast is looser (it takes '1_000'), so only
-- the shapes JS accepts reach it; an infinite result stays infinite so that js_finite()
-- refuses it as zod 4 refuses Infinity. Literals too long for BIGINT give NULL (invalid),
-- where JS gives a number beyond every range the schemas allow bar floor area's. A plain
-- decimal with nothing to trim (most cells: ids, prices, coordinates) takes the first branch,
-- the cast the second would make, without trimming it five times over.
CREATE OR REPLACE TEMP MACRO js_number(s) AS CASE
  WHEN regexp_full_match(s, '-?\d+(\.\d+)?') THEN TRY_CAST(s AS DOUBLE)
  WHEN regexp_full_match(js_trim(s), '[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?') THEN TRY_CAST(js_trim(s) AS DOUBLE)
  WHEN regexp_full_match(js_trim(s), '0([xX][0-9a-fA-F]+|[bB][01]+)') THEN TRY_CAST(js_trim(s) AS BIGINT)::DOUBLE
  WHEN regexp_full_match(js_trim(s), '0[oO][0-7]{1,20}')
  THEN list_reduce(list_transform(string_split(substr(js_trim(s), 3), ''), d -> d::BIGINT), (a, b) -> a * 8 + b)::DOUBLE
  WHEN js_trim(s) = '' THEN 0::DOUBLE
END
