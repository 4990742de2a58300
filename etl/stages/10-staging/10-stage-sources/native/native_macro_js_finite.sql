-- zod 4 z.number(): a finite number (NaN, here NULL, and ±Infinity fail).
CREATE OR REPLACE TEMP MACRO js_finite(n) AS coalesce(isfinite(n), false)
