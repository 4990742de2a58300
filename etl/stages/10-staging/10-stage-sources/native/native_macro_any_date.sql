-- toIsoDate, second half: NULL unless the day exists (2015-02-30 does not).
CREATE OR REPLACE TEMP MACRO any_date(v) AS CASE
  WHEN strftime(TRY_CAST(date_shape(v) AS DATE), '%Y-%m-%d') = date_shape(v) THEN date_shape(v)
END
