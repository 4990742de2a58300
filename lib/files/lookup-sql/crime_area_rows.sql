-- crime_area_rows: each local authority's crimes, addresses and months (crime_la) and its
-- crimes without a position, for GET /crime's authority rate and unplaced count: the ETL
-- writes it as crime-areas.rows. An authority with only unplaced crimes has null counts.
WITH unplaced AS (
  SELECT la_code, count(*) AS unplaced FROM crime
  WHERE (lat IS NULL OR lng IS NULL) AND la_code IS NOT NULL AND la_code <> ''
  GROUP BY la_code
)
SELECT coalesce(l.la_code, u.la_code) AS la_code, l.crimes, l.addresses, l.months, coalesce(u.unplaced, 0) AS unplaced
FROM crime_la l FULL JOIN unplaced u ON u.la_code = l.la_code
ORDER BY la_code
