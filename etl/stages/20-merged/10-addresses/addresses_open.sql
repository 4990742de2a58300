-- addresses (open data): one row per UPRN that a certificate gives an address
-- (open_address_fields, parsed from its newest well-formed certificate), in the columns the
-- AddressBase build has, with coordinates from OS Open UPRN and country and local authority
-- from the postcode directory (the certificate's own country where the directory lacks the
-- postcode). What open data cannot give is left null: no parent UPRN, organisation or
-- classification. A UPRN OS Open UPRN does not know has no point, and a property needs one: it
-- is left out and counted (addresses_open_coverage: certificate_uprns_without_point).
CREATE OR REPLACE TABLE addresses AS
WITH pc AS (
  SELECT pcds, country, oslaua FROM stg_onspd
  QUALIFY row_number() OVER (PARTITION BY pcds ORDER BY _file_no DESC, rowid DESC) = 1
),
os AS (
  SELECT uprn, arg_max(lat, (_file_no::BIGINT << 40) + rowid) AS lat, arg_max(lng, (_file_no::BIGINT << 40) + rowid) AS lng FROM stg_os_uprn GROUP BY uprn
),
cert AS (SELECT uprn, country FROM open_address_certs WHERE rank = 1)
SELECT
  f.uprn,
  CAST(NULL AS BIGINT) AS parent_uprn,
  f.address,
  CAST(NULL AS VARCHAR) AS organisation, f.sub_building, f.building_name, f.building_number, f.street_name,
  f.locality, CAST(NULL AS VARCHAR) AS town_name, f.post_town,
  f.postcode,
  split_part(f.postcode, ' ', 1) AS outcode,
  left(f.postcode, length(f.postcode) - 2) AS sector,
  regexp_extract(f.postcode, '^[A-Z]+') AS postcode_area,
  os.lat, os.lng,
  coalesce(pc.country, CASE WHEN cert.country ILIKE 'scotland%' THEN 'Scotland' WHEN cert.country ILIKE 'wales%' THEN 'Wales' WHEN cert.country ILIKE 'england%' THEN 'England' END) AS country,
  pc.oslaua AS la_code,
  CAST(NULL AS VARCHAR) AS classification_code
FROM open_address_fields f
JOIN cert USING (uprn)
JOIN os USING (uprn)
LEFT JOIN pc ON pc.pcds = f.postcode
