-- rents_area: long-term monthly rents (whole-property lets of the last 24 months) by area and
-- bedrooms (0 studio … 4 = 4+). With fewer than $min_lets lets the area takes its local
-- authority's ONS figures where ONS publishes the category (source ons_district), else keeps
-- its own few lets (source evidence_thin).
CREATE OR REPLACE TABLE rents_area AS
WITH ev AS (
  SELECT l.area_level, l.area_code, r.bedrooms,
         count(*)::INTEGER AS n, median(r.rent_pcm) AS median_pcm, avg(r.rent_pcm) AS mean_pcm,
         quantile_cont(r.rent_pcm, 0.25) AS p25_pcm, quantile_cont(r.rent_pcm, 0.75) AS p75_pcm
  FROM mart_rent_lets r
  CROSS JOIN LATERAL (VALUES ('district', r.district), ('outcode', r.outcode), ('sector', r.sector)) AS l(area_level, area_code)
  WHERE r.let_type = 'whole' AND l.area_code IS NOT NULL
  GROUP BY ALL
),
ons AS (
  SELECT area_code AS la_code, bedrooms, count AS n, median, mean, lower_quartile, upper_quartile
  FROM stg_ons_rents
  WHERE bedrooms IS NOT NULL
  QUALIFY row_number() OVER (PARTITION BY area_code, category ORDER BY _file_no DESC) = 1
),
areas AS (
  SELECT area_level, area_code, bedrooms FROM ev
  UNION
  SELECT 'district', la_code, bedrooms FROM ons
)
SELECT
  a.area_level, a.area_code, a.bedrooms,
  CASE WHEN coalesce(ev.n, 0) >= $min_lets THEN 'evidence' WHEN o.median IS NOT NULL THEN 'ons_district' ELSE 'evidence_thin' END AS source,
  CASE WHEN coalesce(ev.n, 0) >= $min_lets OR o.median IS NULL THEN ev.median_pcm ELSE o.median END AS median_pcm,
  round(CASE WHEN coalesce(ev.n, 0) >= $min_lets OR o.median IS NULL THEN ev.mean_pcm ELSE o.mean END, 2) AS mean_pcm,
  CASE WHEN coalesce(ev.n, 0) >= $min_lets OR o.median IS NULL THEN ev.p25_pcm ELSE o.lower_quartile END AS p25_pcm,
  CASE WHEN coalesce(ev.n, 0) >= $min_lets OR o.median IS NULL THEN ev.p75_pcm ELSE o.upper_quartile END AS p75_pcm,
  CASE WHEN coalesce(ev.n, 0) >= $min_lets OR o.median IS NULL THEN ev.n ELSE o.n END AS sample_size,
  coalesce(ev.n, 0) AS evidence_count,
  la.la_code
FROM areas a
LEFT JOIN ev USING (area_level, area_code, bedrooms)
LEFT JOIN mart_area_la la USING (area_level, area_code)
LEFT JOIN ons o ON o.la_code = la.la_code AND o.bedrooms = a.bedrooms
