-- addresses: one row per UPRN of the address base (its latest record; deletions dropped),
-- with coordinates (OS Open UPRN where the address base lacks them), postcode geography,
-- and country and local authority from the postcode directory where it has the postcode.
-- A UPRN or postcode repeated: the latest file's row wins, within a file its last row (rowid
-- keeps file order), so ties never depend on how DuckDB's threads ordered them.
CREATE OR REPLACE TABLE addresses AS
WITH ab AS (
  SELECT * FROM stg_addressbase
  QUALIFY row_number() OVER (PARTITION BY uprn ORDER BY _file_no DESC, rowid DESC) = 1
),
pc AS (
  SELECT pcds, country, oslaua FROM stg_onspd
  QUALIFY row_number() OVER (PARTITION BY pcds ORDER BY _file_no DESC, rowid DESC) = 1
),
os AS (
  -- One BIGINT key (file, then row), not a struct: DuckDB (1.5) cannot spill an aggregate
  -- keyed by a struct, and at 10M addresses this ran out of its memory limit.
  SELECT uprn, arg_max(lat, (_file_no::BIGINT << 40) + rowid) AS lat, arg_max(lng, (_file_no::BIGINT << 40) + rowid) AS lng FROM stg_os_uprn GROUP BY uprn
)
SELECT
  ab.uprn,
  ab.parent_uprn,
  ab.single_line_address AS address,
  ab.organisation, ab.sub_building, ab.building_name, ab.building_number, ab.street_name,
  ab.locality, ab.town_name, ab.post_town,
  ab.postcode,
  split_part(ab.postcode, ' ', 1) AS outcode,
  left(ab.postcode, length(ab.postcode) - 2) AS sector,
  regexp_extract(ab.postcode, '^[A-Z]+') AS postcode_area,
  coalesce(ab.lat, os.lat) AS lat,
  coalesce(ab.lng, os.lng) AS lng,
  coalesce(pc.country, CASE left(ab.gss_code, 1) WHEN 'E' THEN 'England' WHEN 'W' THEN 'Wales' WHEN 'S' THEN 'Scotland' END) AS country,
  coalesce(pc.oslaua, ab.gss_code) AS la_code,
  ab.classification_code
FROM ab
LEFT JOIN os USING (uprn)
LEFT JOIN pc ON pc.pcds = ab.postcode
WHERE coalesce(ab.change_code, 'I') <> 'D'
