INSERT INTO stg_epc
SELECT certificate_id, uprn, address1, address2, address3, postcode, posttown, property_type, built_form, total_floor_area_m2,
  number_habitable_rooms, current_energy_efficiency, potential_energy_efficiency, construction_age_band, current_energy_rating,
  potential_energy_rating, tenure, lodgement_date, inspection_date, region, country, main_fuel, $file_no
FROM native_checked WHERE reason IS NULL ORDER BY _ord
