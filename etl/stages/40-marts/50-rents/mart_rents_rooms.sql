-- rents_rooms: monthly rent of a room in a shared house (room lets of the last 24 months) by
-- area; with fewer than $min_lets lets, the local authority's ONS "Room" figures.
-- Within a file the last row wins (rowid keeps file order), so ties never depend on how
-- DuckDB's threads ordered them.
-- Means are taken exactly over DECIMAL(38, 9): a DOUBLE mean depends on the order DuckDB's
-- threads add rows in, and two builds must publish the same (TRY_CAST: a non-finite value is
-- left out rather than failing the build).
CREATE OR REPLACE TABLE rents_rooms AS
WITH ev AS (
  SELECT l.area_level, l.area_code,
         count(*)::INTEGER AS n, median(r.rent_pcm) AS median_pcm, avg(TRY_CAST(r.rent_pcm AS DECIMAL(38, 9))) AS mean_pcm,
         quantile_cont(r.rent_pcm, 0.25) AS p25_pcm, quantile_cont(r.rent_pcm, 0.75) AS p75_pcm
  FROM mart_rent_lets r
  CROSS JOIN LATERAL (VALUES ('district', r.district), ('outcode', r.outcode), ('sector', r.sector)) AS l(area_level, area_code)
  WHERE r.let_type = 'room' AND l.area_code IS NOT NULL
  GROUP BY ALL
),
ons AS (
  SELECT area_code AS la_code, count AS n, median, mean, lower_quartile, upper_quartile
  FROM stg_ons_rents
  WHERE category = 'room'
  QUALIFY row_number() OVER (PARTITION BY area_code ORDER BY _file_no DESC, rowid DESC) = 1
),
areas AS (
  SELECT area_level, area_code FROM ev
  UNION
  SELECT 'district', la_code FROM ons
)
SELECT
  a.area_level, a.area_code,
  CASE WHEN coalesce(ev.n, 0) >= $min_lets THEN 'evidence' WHEN o.median IS NOT NULL THEN 'ons_district' ELSE 'evidence_thin' END AS source,
  CASE WHEN coalesce(ev.n, 0) >= $min_lets OR o.median IS NULL THEN ev.median_pcm ELSE o.median END AS median_pcm,
  round(CASE WHEN coalesce(ev.n, 0) >= $min_lets OR o.median IS NULL THEN ev.mean_pcm ELSE o.mean END, 2) AS mean_pcm,
  CASE WHEN coalesce(ev.n, 0) >= $min_lets OR o.median IS NULL THEN ev.p25_pcm ELSE o.lower_quartile END AS p25_pcm,
  CASE WHEN coalesce(ev.n, 0) >= $min_lets OR o.median IS NULL THEN ev.p75_pcm ELSE o.upper_quartile END AS p75_pcm,
  CASE WHEN coalesce(ev.n, 0) >= $min_lets OR o.median IS NULL THEN ev.n ELSE o.n END AS sample_size,
  coalesce(ev.n, 0) AS evidence_count,
  la.la_code
FROM areas a
LEFT JOIN ev USING (area_level, area_code)
LEFT JOIN mart_area_la la USING (area_level, area_code)
LEFT JOIN ons o ON o.la_code = la.la_code
