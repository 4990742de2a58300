-- str_calendar_stats: the forward calendar of each listing summarised. Day k counts from the
-- listing's first calendar day (the scrape). A closed night ('f') is either booked ahead or
-- blocked by the host; from day blocked_from_day on, few bookings exist yet, so the closed
-- share there estimates the blocked share.
-- Within a file the last row wins (rowid keeps file order), so ties never depend on how
-- DuckDB's threads ordered them.
CREATE OR REPLACE TABLE str_calendar_stats AS
WITH cal AS (
  SELECT listing_id AS id, CAST(date AS DATE) AS d, available
  FROM stg_airbnb_calendar
  WHERE available IS NOT NULL
  QUALIFY row_number() OVER (PARTITION BY listing_id, date ORDER BY _file_no DESC, rowid DESC) = 1
),
k AS (
  SELECT *, d - min(d) OVER (PARTITION BY id) AS k FROM cal
)
SELECT
  id,
  min(d) AS calendar_start,
  count(*) AS calendar_days,
  count(*) FILTER (WHERE available) AS open_365,
  count(*) FILTER (WHERE k < 30) AS days_30,
  count(*) FILTER (WHERE k < 30 AND available) AS open_30,
  count(*) FILTER (WHERE k >= $blocked_from_day) AS far_days,
  count(*) FILTER (WHERE k >= $blocked_from_day AND NOT available) AS far_closed
FROM k GROUP BY id
