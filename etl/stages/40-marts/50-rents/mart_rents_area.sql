-- rents_area: long-term monthly rents (whole-property lets of the last 24 months) by area and
-- bedrooms (0 studio … 4 = 4+). Thin samples (docs/marts.md, "Thin samples"):
--   * n >= $min_lets lets: the area's own figures (source evidence).
--   * 0 < n < $min_lets: each figure (median, mean, p25, p75) is shrunk toward the wider area's
--     by limited-fluctuation credibility, Z = sqrt(n / $min_lets): Z × own + (1 − Z) × wider.
--     The wider area is the sector's outcode, the outcode's local authority district, the
--     district's ONS figure for the category (prior_level says which); each wider figure is
--     itself already shrunk. Source shrunk; without any wider figure, evidence_thin.
--   * n = 0 at district level: the ONS figures (source ons_district; sample_size is ONS's count).
-- Then where a group is thin, rents do not fall as bedrooms rise: a thin group's figures are
-- lowered to the smallest median of the larger well-evidenced groups of its area and raised to
-- the largest median of its smaller groups (quartiles and mean scaled with the median).
-- sample_size is the lets behind the row (ONS's count for ons_district); evidence_count the
-- area's own lets; credibility Z (1 for evidence, 0 for ons_district).
-- Within a file the last row wins (rowid keeps file order), so ties never depend on how
-- DuckDB's threads ordered them.
-- Means are taken exactly over DECIMAL(38, 9): a DOUBLE mean depends on the order DuckDB's
-- threads add rows in, and two builds must publish the same (TRY_CAST: a non-finite value is
-- left out rather than failing the build).
CREATE OR REPLACE TABLE rents_area AS
WITH ev AS (
  SELECT l.area_level, l.area_code, r.bedrooms,
         count(*)::INTEGER AS n, median(r.rent_pcm) AS median_pcm, avg(TRY_CAST(r.rent_pcm AS DECIMAL(38, 9))) AS mean_pcm,
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
  QUALIFY row_number() OVER (PARTITION BY area_code, category ORDER BY _file_no DESC, rowid DESC) = 1
),
-- District rows: own lets, blended with (or, without lets, replaced by) the ONS figures.
d AS (
  SELECT 'district' AS area_level, coalesce(e.area_code, o.la_code) AS area_code, coalesce(e.bedrooms, o.bedrooms) AS bedrooms,
    coalesce(e.n, 0) AS n, e.median_pcm, e.mean_pcm, e.p25_pcm, e.p75_pcm,
    CASE WHEN o.median IS NOT NULL THEN 'ons_district' END AS prior_level,
    o.median AS w_median, o.mean AS w_mean, o.lower_quartile AS w_p25, o.upper_quartile AS w_p75, o.n AS ons_n
  FROM (SELECT * FROM ev WHERE area_level = 'district') e
  FULL JOIN ons o ON o.la_code = e.area_code AND o.bedrooms = e.bedrooms
),
-- Z × own + (1 − Z) × wider, figure by figure (own alone where the wider figure is missing).
d2 AS (
  SELECT *, least(1, sqrt(n / $min_lets)) AS z FROM d
),
ds AS (
  SELECT area_level, area_code, bedrooms, n, prior_level, z, ons_n,
    CASE WHEN n = 0 THEN w_median WHEN z >= 1 OR w_median IS NULL THEN median_pcm ELSE z * median_pcm + (1 - z) * w_median END AS median_pcm,
    CASE WHEN n = 0 THEN w_mean WHEN z >= 1 OR w_mean IS NULL THEN mean_pcm ELSE z * mean_pcm + (1 - z) * w_mean END AS mean_pcm,
    CASE WHEN n = 0 THEN w_p25 WHEN z >= 1 OR w_p25 IS NULL THEN p25_pcm ELSE z * p25_pcm + (1 - z) * w_p25 END AS p25_pcm,
    CASE WHEN n = 0 THEN w_p75 WHEN z >= 1 OR w_p75 IS NULL THEN p75_pcm ELSE z * p75_pcm + (1 - z) * w_p75 END AS p75_pcm
  FROM d2
),
os AS (
  SELECT e.area_level, e.area_code, e.bedrooms, e.n, least(1, sqrt(e.n / $min_lets)) AS z,
    CASE WHEN w.median_pcm IS NOT NULL THEN 'district' END AS prior_level, NULL::BIGINT AS ons_n,
    e.median_pcm AS own_median, e.mean_pcm AS own_mean, e.p25_pcm AS own_p25, e.p75_pcm AS own_p75,
    w.median_pcm AS w_median, w.mean_pcm AS w_mean, w.p25_pcm AS w_p25, w.p75_pcm AS w_p75
  FROM ev e
  LEFT JOIN mart_area_la la ON la.area_level = 'outcode' AND la.area_code = e.area_code
  LEFT JOIN ds w ON w.area_code = la.la_code AND w.bedrooms = e.bedrooms
  WHERE e.area_level = 'outcode'
),
o2 AS (
  SELECT area_level, area_code, bedrooms, n, prior_level, z, ons_n,
    CASE WHEN z >= 1 OR w_median IS NULL THEN own_median ELSE z * own_median + (1 - z) * w_median END AS median_pcm,
    CASE WHEN z >= 1 OR w_mean IS NULL THEN own_mean ELSE z * own_mean + (1 - z) * w_mean END AS mean_pcm,
    CASE WHEN z >= 1 OR w_p25 IS NULL THEN own_p25 ELSE z * own_p25 + (1 - z) * w_p25 END AS p25_pcm,
    CASE WHEN z >= 1 OR w_p75 IS NULL THEN own_p75 ELSE z * own_p75 + (1 - z) * w_p75 END AS p75_pcm
  FROM os
),
ss AS (
  SELECT e.area_level, e.area_code, e.bedrooms, e.n, least(1, sqrt(e.n / $min_lets)) AS z,
    CASE WHEN w.median_pcm IS NOT NULL THEN 'outcode' END AS prior_level, NULL::BIGINT AS ons_n,
    e.median_pcm AS own_median, e.mean_pcm AS own_mean, e.p25_pcm AS own_p25, e.p75_pcm AS own_p75,
    w.median_pcm AS w_median, w.mean_pcm AS w_mean, w.p25_pcm AS w_p25, w.p75_pcm AS w_p75
  FROM ev e
  LEFT JOIN o2 w ON w.area_code = split_part(e.area_code, ' ', 1) AND w.bedrooms = e.bedrooms
  WHERE e.area_level = 'sector'
),
s2 AS (
  SELECT area_level, area_code, bedrooms, n, prior_level, z, ons_n,
    CASE WHEN z >= 1 OR w_median IS NULL THEN own_median ELSE z * own_median + (1 - z) * w_median END AS median_pcm,
    CASE WHEN z >= 1 OR w_mean IS NULL THEN own_mean ELSE z * own_mean + (1 - z) * w_mean END AS mean_pcm,
    CASE WHEN z >= 1 OR w_p25 IS NULL THEN own_p25 ELSE z * own_p25 + (1 - z) * w_p25 END AS p25_pcm,
    CASE WHEN z >= 1 OR w_p75 IS NULL THEN own_p75 ELSE z * own_p75 + (1 - z) * w_p75 END AS p75_pcm
  FROM ss
),
allr AS (
  SELECT * FROM ds UNION ALL SELECT * FROM o2 UNION ALL SELECT * FROM s2
),
-- The monotonicity guard for thin groups: bounds from the area's other bedroom groups.
b AS (
  SELECT *,
    -- ONS's own figures count as well evidenced (its sample is the district's).
    n >= $min_lets OR (n = 0 AND ons_n >= $min_lets) AS solid,
    max(median_pcm) OVER (PARTITION BY area_level, area_code ORDER BY bedrooms ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS below_max,
    min(CASE WHEN n >= $min_lets OR (n = 0 AND ons_n >= $min_lets) THEN median_pcm END) OVER (PARTITION BY area_level, area_code ORDER BY bedrooms ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING) AS above_solid_min
  FROM allr
),
m AS (
  SELECT *,
    CASE WHEN solid THEN median_pcm
         ELSE greatest(least(median_pcm, coalesce(above_solid_min, median_pcm)), coalesce(below_max, 0)) END AS guarded
  FROM b
)
SELECT
  m.area_level, m.area_code, m.bedrooms,
  CASE WHEN m.n >= $min_lets THEN 'evidence' WHEN m.n = 0 THEN 'ons_district' WHEN m.prior_level IS NOT NULL THEN 'shrunk' ELSE 'evidence_thin' END AS source,
  m.guarded AS median_pcm,
  round(m.mean_pcm * m.guarded / m.median_pcm, 2) AS mean_pcm,
  -- Scaled with the median, and kept either side of it: p × g ÷ m can land an ulp past g when
  -- p equals m (a group of equal rents), which would break the quartiles' order.
  least(m.p25_pcm * m.guarded / m.median_pcm, m.guarded) AS p25_pcm,
  greatest(m.p75_pcm * m.guarded / m.median_pcm, m.guarded) AS p75_pcm,
  CAST(CASE WHEN m.n = 0 THEN m.ons_n ELSE m.n END AS INTEGER) AS sample_size,
  m.n AS evidence_count,
  la.la_code,
  CASE WHEN m.n < $min_lets THEN m.prior_level END AS prior_level,
  round(CASE WHEN m.n = 0 THEN 0 ELSE m.z END, 3) AS credibility
FROM m
LEFT JOIN mart_area_la la USING (area_level, area_code)
