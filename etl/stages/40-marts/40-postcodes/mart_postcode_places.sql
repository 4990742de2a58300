-- postcode_places: one row per postcode known to ONSPD, Code-Point Open or the address base,
-- with its place (position, local authority, ward, country) and address count: everything of
-- `postcodes` but its sales. A table of its own so that a stage placing things by postcode
-- (marts_location) does not depend on Price Paid, and is reused when only sales change.
-- ONSPD wins field by field where both directories have the postcode (it carries
-- terminations, wards and country names); Code-Point only lists live postcodes; a postcode
-- only the address base knows takes its addresses' mean position.
-- The most common value is counted with histogram() and ties go to the smallest value:
-- DuckDB's mode() breaks ties by the order rows arrive in, which differs between builds.
-- Mean positions are taken exactly over DECIMAL(38, 9) degrees: a DOUBLE mean depends on the
-- order DuckDB's threads add rows in, and two builds must publish the same (TRY_CAST: a
-- non-finite value is left out rather than failing the build).
-- Within a file the last row wins (rowid keeps file order), so ties never depend on how
-- DuckDB's threads ordered them.
CREATE OR REPLACE TABLE postcode_places AS
WITH ons AS (
  SELECT * FROM stg_onspd
  QUALIFY row_number() OVER (PARTITION BY pcds ORDER BY _file_no DESC, rowid DESC) = 1
),
cp AS (
  SELECT * FROM stg_codepoint
  QUALIFY row_number() OVER (PARTITION BY postcode ORDER BY _file_no DESC, rowid DESC) = 1
),
ab AS (
  SELECT postcode, count(*)::INTEGER AS address_count, avg(TRY_CAST(lat AS DECIMAL(38, 9))) AS lat, avg(TRY_CAST(lng AS DECIMAL(38, 9))) AS lng,
         list_sort(list_transform(map_entries(histogram(la_code)), e -> {'n': -CAST(e.value AS BIGINT), 'v': e.key}))[1].v AS la_code,
         list_sort(list_transform(map_entries(histogram(country)), e -> {'n': -CAST(e.value AS BIGINT), 'v': e.key}))[1].v AS country
  FROM addresses WHERE postcode IS NOT NULL GROUP BY postcode
),
keys AS (
  SELECT pcds AS postcode FROM ons
  UNION SELECT postcode FROM cp
  UNION SELECT postcode FROM ab
)
SELECT
  k.postcode,
  split_part(k.postcode, ' ', 1) AS outcode,
  left(k.postcode, length(k.postcode) - 2) AS sector,
  coalesce(ons.lat, cp.lat, ab.lat) AS lat,
  coalesce(ons.lng, cp.lng, ab.lng) AS lng,
  coalesce(ons.country, CASE left(cp.country_code, 1) WHEN 'E' THEN 'England' WHEN 'W' THEN 'Wales' WHEN 'S' THEN 'Scotland' END, ab.country) AS country,
  coalesce(ons.oslaua, cp.admin_district_code, ab.la_code) AS la_code,
  coalesce(ons.osward, cp.admin_ward_code) AS ward,
  coalesce(ons.terminated, false) AS terminated,
  CASE WHEN ons.doterm IS NOT NULL THEN make_date(left(ons.doterm, 4)::INTEGER, right(ons.doterm, 2)::INTEGER, 1) END AS date_terminated,
  coalesce(ab.address_count, 0) AS address_count,
  CASE WHEN ons.pcds IS NOT NULL THEN 'onspd' WHEN cp.postcode IS NOT NULL THEN 'codepoint' ELSE 'addressbase' END AS source
FROM keys k
LEFT JOIN ons ON ons.pcds = k.postcode
LEFT JOIN cp ON cp.postcode = k.postcode
LEFT JOIN ab ON ab.postcode = k.postcode
