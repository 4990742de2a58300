-- str_postcode_points: where a listing can take its postcode from. The centroid of each
-- address-base postcode first (priority 0); postcodes only the postcode directory knows
-- (live ONSPD, else Code-Point Open) second (priority 1). Grid cells of 0.01° latitude by
-- 0.02° longitude (at least 1.08 km each way up to 61°N) let the nearest search join on
-- cell keys instead of comparing every listing with every postcode.
-- The most common value is counted with histogram() and ties go to the smallest value: DuckDB's
-- mode() breaks ties by the order rows arrive in, which differs between builds.
-- Mean positions are taken exactly over DECIMAL(38, 9) degrees: a DOUBLE mean depends on the
-- order DuckDB's threads add rows in, and two builds must publish the same (TRY_CAST: a
-- non-finite value is left out rather than failing the build).
-- Within a file the last row wins (rowid keeps file order), so ties never depend on how
-- DuckDB's threads ordered them.
CREATE OR REPLACE TABLE str_postcode_points AS
WITH ab AS (
  SELECT postcode, avg(TRY_CAST(lat AS DECIMAL(38, 9))) AS lat, avg(TRY_CAST(lng AS DECIMAL(38, 9))) AS lng,
         list_sort(list_transform(map_entries(histogram(la_code)), e -> {'n': -CAST(e.value AS BIGINT), 'v': e.key}))[1].v AS la_code,
         list_sort(list_transform(map_entries(histogram(country)), e -> {'n': -CAST(e.value AS BIGINT), 'v': e.key}))[1].v AS country, 0 AS priority
  FROM addresses WHERE postcode IS NOT NULL AND lat IS NOT NULL AND lng IS NOT NULL
  GROUP BY postcode
),
onspd AS (
  SELECT pcds AS postcode, lat, lng, oslaua AS la_code, country, 1 AS priority
  FROM stg_onspd WHERE NOT coalesce(terminated, false) AND lat IS NOT NULL AND lng IS NOT NULL
  QUALIFY row_number() OVER (PARTITION BY pcds ORDER BY _file_no DESC, rowid DESC) = 1
),
cp AS (
  SELECT postcode, lat, lng, admin_district_code AS la_code,
         CASE left(country_code, 1) WHEN 'E' THEN 'England' WHEN 'W' THEN 'Wales' WHEN 'S' THEN 'Scotland' END AS country,
         1 AS priority
  FROM stg_codepoint WHERE has_location AND lat IS NOT NULL AND lng IS NOT NULL
  QUALIFY row_number() OVER (PARTITION BY postcode ORDER BY _file_no DESC, rowid DESC) = 1
),
pts AS (
  SELECT * FROM ab
  UNION ALL SELECT * FROM onspd WHERE postcode NOT IN (SELECT postcode FROM ab)
  UNION ALL SELECT * FROM cp WHERE postcode NOT IN (SELECT postcode FROM ab) AND postcode NOT IN (SELECT postcode FROM onspd)
)
SELECT *, CAST(floor(lat / 0.01) AS INTEGER) AS cy, CAST(floor(lng / 0.02) AS INTEGER) AS cx FROM pts
