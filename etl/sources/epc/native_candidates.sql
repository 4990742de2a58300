-- etl/sources/epc/read.ts, the England and Wales reader, up to its candidate row: each cell trimmed
-- and the register's "no value" markers blank (epc_get), the certificate id, and the UPRN text
-- from the UPRN column or a `UPRN-` building reference. Columns the file lacks come in as NULL
-- (the first SELECT). native_check_epc.sql checks the candidates as EpcRow.
CREATE OR REPLACE TEMP VIEW native_epc_candidates AS
WITH src AS (
  SELECT * FROM (SELECT NULL::BIGINT AS _ord, NULL::VARCHAR AS id, NULL::VARCHAR AS uprn, NULL::VARCHAR AS building_reference_number,
    NULL::VARCHAR AS address1, NULL::VARCHAR AS address2, NULL::VARCHAR AS address3, NULL::VARCHAR AS postcode,
    NULL::VARCHAR AS posttown, NULL::VARCHAR AS property_type, NULL::VARCHAR AS built_form, NULL::VARCHAR AS total_floor_area_m2,
    NULL::VARCHAR AS number_habitable_rooms, NULL::VARCHAR AS construction_age_band, NULL::VARCHAR AS current_energy_rating,
    NULL::VARCHAR AS potential_energy_rating, NULL::VARCHAR AS current_energy_efficiency, NULL::VARCHAR AS potential_energy_efficiency,
    NULL::VARCHAR AS main_fuel, NULL::VARCHAR AS tenure, NULL::VARCHAR AS lodgement_date, NULL::VARCHAR AS inspection_date,
    NULL::VARCHAR AS region, NULL::VARCHAR AS country WHERE false)
  UNION ALL BY NAME
  SELECT rowid AS _ord, * FROM native_raw
), g AS (
  SELECT _ord, js_trim(id) AS certificate_id,
    epc_get(uprn) AS uprn, epc_get(building_reference_number) AS building_reference_number, epc_get(address1) AS address1,
    epc_get(address2) AS address2, epc_get(address3) AS address3, epc_get(postcode) AS postcode,
    epc_get(posttown) AS posttown, epc_get(property_type) AS property_type, epc_get(built_form) AS built_form,
    epc_get(total_floor_area_m2) AS total_floor_area_m2, epc_get(number_habitable_rooms) AS number_habitable_rooms, epc_get(construction_age_band) AS construction_age_band,
    epc_get(current_energy_rating) AS current_energy_rating, epc_get(potential_energy_rating) AS potential_energy_rating, epc_get(current_energy_efficiency) AS current_energy_efficiency,
    epc_get(potential_energy_efficiency) AS potential_energy_efficiency, epc_get(main_fuel) AS main_fuel, epc_get(tenure) AS tenure,
    epc_get(lodgement_date) AS lodgement_date, epc_get(inspection_date) AS inspection_date, epc_get(region) AS region,
    epc_get(country) AS country
  FROM src
), u AS (
  SELECT *,
    CASE WHEN regexp_replace(uprn, '^UPRN-', '', 'i') <> '' THEN regexp_replace(uprn, '^UPRN-', '', 'i')
      ELSE regexp_extract(building_reference_number, '^UPRN-(\d+)$', 1, 'i') END AS uprn_v
  FROM g
)
SELECT * EXCLUDE (uprn, building_reference_number) FROM u
