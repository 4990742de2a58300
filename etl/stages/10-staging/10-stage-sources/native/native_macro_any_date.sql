-- toIsoDate, second half: NULL unless the day exists (2015-02-30 does not). A cell already in
-- the ISO shape, with nothing to trim, is its own date_shape: checked without the macro, which
-- would be expanded three times over.
CREATE OR REPLACE TEMP MACRO any_date(v) AS CASE
  WHEN regexp_full_match(v, '\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?)?')
  THEN CASE WHEN strftime(TRY_CAST(substr(v, 1, 10) AS DATE), '%Y-%m-%d') = substr(v, 1, 10) THEN substr(v, 1, 10) END
  WHEN strftime(TRY_CAST(date_shape(v) AS DATE), '%Y-%m-%d') = date_shape(v) THEN date_shape(v)
END
