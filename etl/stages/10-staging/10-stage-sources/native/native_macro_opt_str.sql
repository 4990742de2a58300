-- optStr(): blank → NULL, else trimmed.
CREATE OR REPLACE TEMP MACRO opt_str(s) AS CASE WHEN js_trim(s) = '' THEN NULL ELSE js_trim(s) END
