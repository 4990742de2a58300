-- schemas/sources/epc.ts EpcRow, in SQL, over native_epc_candidates (the England and Wales
-- or the Scottish reader's candidate rows, made by native_candidates_<kind>.sql): each row's
-- reason is its first failing field in schema order, as validateRow reports it.
CREATE TEMP TABLE native_checked AS
WITH v AS (
  SELECT *,
    CASE WHEN uprn_v = '' OR regexp_full_match(uprn_v, '0+') OR js_blank(uprn_v) THEN NULL ELSE js_number(uprn_v) END AS uprn_n,
    uprn_v <> '' AND NOT regexp_full_match(uprn_v, '0+') AND NOT js_blank(uprn_v) AS uprn_given,
    CASE WHEN js_blank(postcode) THEN NULL ELSE format_postcode(postcode) END AS postcode_f,
    CASE lower(property_type) WHEN 'house' THEN 'House' WHEN 'flat' THEN 'Flat' WHEN 'bungalow' THEN 'Bungalow'
      WHEN 'maisonette' THEN 'Maisonette' WHEN 'park home' THEN 'Park home' ELSE property_type END AS property_type_f,
    CASE WHEN js_blank(total_floor_area_m2) OR js_number(total_floor_area_m2) = 0 THEN NULL ELSE js_number(total_floor_area_m2) END AS area_n,
    NOT js_blank(total_floor_area_m2) AND coalesce(js_number(total_floor_area_m2) <> 0, true) AS area_given,
    CASE WHEN number_habitable_rooms <> '' THEN js_number(number_habitable_rooms) END AS rooms_n,
    CASE WHEN current_energy_efficiency <> '' THEN js_number(current_energy_efficiency) END AS cee_n,
    CASE WHEN potential_energy_efficiency <> '' THEN js_number(potential_energy_efficiency) END AS pee_n,
    upper(current_energy_rating) AS cer, upper(potential_energy_rating) AS per,
    any_date(lodgement_date) AS lodged, any_date(inspection_date) AS inspected
  FROM native_epc_candidates
)
SELECT _ord,
  CASE
    WHEN certificate_id = '' THEN 'invalid:certificate_id'
    WHEN uprn_given AND NOT (js_int(uprn_n) AND uprn_n > 0 AND uprn_n <= 999999999999) THEN 'invalid:uprn'
    WHEN postcode_f IS NOT NULL AND NOT postcode_ok(postcode_f) THEN 'invalid:postcode'
    WHEN property_type <> '' AND property_type_f NOT IN ('House', 'Flat', 'Bungalow', 'Maisonette', 'Park home') THEN 'invalid:property_type'
    WHEN area_given AND NOT (js_finite(area_n) AND area_n > 0) THEN 'invalid:total_floor_area_m2'
    WHEN number_habitable_rooms <> '' AND NOT (js_int(rooms_n) AND rooms_n >= 0) THEN 'invalid:number_habitable_rooms'
    WHEN current_energy_rating <> '' AND cer NOT IN ('A', 'B', 'C', 'D', 'E', 'F', 'G') THEN 'invalid:current_energy_rating'
    WHEN potential_energy_rating <> '' AND per NOT IN ('A', 'B', 'C', 'D', 'E', 'F', 'G') THEN 'invalid:potential_energy_rating'
    WHEN current_energy_efficiency <> '' AND NOT js_int(cee_n) THEN 'invalid:current_energy_efficiency'
    WHEN potential_energy_efficiency <> '' AND NOT js_int(pee_n) THEN 'invalid:potential_energy_efficiency'
    WHEN lodged IS NULL THEN 'invalid:lodgement_date'
    WHEN inspection_date <> '' AND inspected IS NULL THEN 'invalid:inspection_date'
  END AS reason,
  lodged AS _date,
  certificate_id, TRY_CAST(uprn_n AS BIGINT) AS uprn, opt_str(address1) AS address1, opt_str(address2) AS address2,
  opt_str(address3) AS address3, postcode_f AS postcode, opt_str(posttown) AS posttown,
  CASE WHEN property_type = '' THEN NULL ELSE property_type_f END AS property_type, opt_str(built_form) AS built_form,
  area_n AS total_floor_area_m2, TRY_CAST(rooms_n AS INTEGER) AS number_habitable_rooms,
  TRY_CAST(cee_n AS INTEGER) AS current_energy_efficiency, TRY_CAST(pee_n AS INTEGER) AS potential_energy_efficiency,
  opt_str(construction_age_band) AS construction_age_band, CASE WHEN current_energy_rating = '' THEN NULL ELSE cer END AS current_energy_rating,
  CASE WHEN potential_energy_rating = '' THEN NULL ELSE per END AS potential_energy_rating, opt_str(tenure) AS tenure,
  lodged AS lodgement_date, inspected AS inspection_date, opt_str(region) AS region, opt_str(country) AS country,
  opt_str(main_fuel) AS main_fuel
FROM v
