-- optStr(): blank → NULL, else trimmed (nullif: js_trim evaluated once, never NULL itself).
CREATE OR REPLACE TEMP MACRO opt_str(s) AS nullif(js_trim(s), '')
