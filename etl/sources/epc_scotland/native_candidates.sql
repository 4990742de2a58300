-- etl/sources/epc_scotland/read.ts, the Scottish register's reader, up to its candidate row: each
-- cell trimmed and the register's "no value" markers blank, the certificate id (the report
-- reference, else the property id with the lodgement date as written), the UPRN from
-- OSG_REFERENCE_NUMBER (`906012345.0` is 906012345; 0 means none) and country Scotland.
-- Columns the file lacks come in as NULL (the first SELECT). native_check_epc.sql checks the
-- candidates as EpcRow. A second header row was skipped by the read (the layout's skip).
CREATE OR REPLACE TEMP VIEW native_epc_candidates AS
WITH src AS (
  SELECT * FROM (SELECT NULL::BIGINT AS _ord, NULL::VARCHAR AS report, NULL::VARCHAR AS brn, NULL::VARCHAR AS osg,
    NULL::VARCHAR AS address1, NULL::VARCHAR AS address2, NULL::VARCHAR AS postcode, NULL::VARCHAR AS posttown,
    NULL::VARCHAR AS property_type, NULL::VARCHAR AS built_form, NULL::VARCHAR AS total_floor_area_m2,
    NULL::VARCHAR AS number_habitable_rooms, NULL::VARCHAR AS construction_age_band, NULL::VARCHAR AS current_energy_rating,
    NULL::VARCHAR AS potential_energy_rating, NULL::VARCHAR AS current_energy_efficiency, NULL::VARCHAR AS potential_energy_efficiency,
    NULL::VARCHAR AS main_fuel, NULL::VARCHAR AS tenure, NULL::VARCHAR AS lodgement_date, NULL::VARCHAR AS inspection_date WHERE false)
  UNION ALL BY NAME
  SELECT rowid AS _ord, * FROM native_raw
), g AS (
  SELECT _ord, epc_scotland_get(report) AS report, epc_scotland_get(brn) AS brn, epc_scotland_get(osg) AS osg,
    epc_scotland_get(address1) AS address1, epc_scotland_get(address2) AS address2, '' AS address3,
    epc_scotland_get(postcode) AS postcode, epc_scotland_get(posttown) AS posttown, epc_scotland_get(property_type) AS property_type,
    epc_scotland_get(built_form) AS built_form, epc_scotland_get(total_floor_area_m2) AS total_floor_area_m2,
    epc_scotland_get(number_habitable_rooms) AS number_habitable_rooms, epc_scotland_get(construction_age_band) AS construction_age_band,
    epc_scotland_get(current_energy_rating) AS current_energy_rating, epc_scotland_get(potential_energy_rating) AS potential_energy_rating,
    epc_scotland_get(current_energy_efficiency) AS current_energy_efficiency,
    epc_scotland_get(potential_energy_efficiency) AS potential_energy_efficiency, epc_scotland_get(main_fuel) AS main_fuel,
    epc_scotland_get(tenure) AS tenure, epc_scotland_get(lodgement_date) AS lodgement_date,
    epc_scotland_get(inspection_date) AS inspection_date, '' AS region, 'Scotland' AS country
  FROM src
)
SELECT * EXCLUDE (report, brn, osg),
  CASE WHEN report <> '' THEN report WHEN brn <> '' AND lodgement_date <> '' THEN brn || ':' || lodgement_date ELSE '' END AS certificate_id,
  CASE
    WHEN NOT regexp_full_match(osg, '\d+(\.0*)?') THEN osg
    WHEN regexp_full_match(regexp_extract(osg, '^\d+'), '0+') THEN ''
    ELSE regexp_extract(osg, '^\d+')
  END AS uprn_v
FROM g
