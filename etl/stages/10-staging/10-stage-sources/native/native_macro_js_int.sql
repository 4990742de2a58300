-- zod 4 .int(): a safe integer.
CREATE OR REPLACE TEMP MACRO js_int(n) AS js_finite(n) AND n = floor(n) AND abs(n) <= 9007199254740991
