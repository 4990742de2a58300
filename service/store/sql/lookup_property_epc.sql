-- lookup_property_epc: the certificates of one UPRN, newest lodgement first.
SELECT certificate_id, lodgement_date::VARCHAR AS lodgement_date, inspection_date::VARCHAR AS inspection_date,
       current_energy_rating, potential_energy_rating, current_energy_efficiency, potential_energy_efficiency, total_floor_area_m2,
       number_habitable_rooms, property_type, built_form, construction_age_band, main_fuel, tenure
FROM lk_epc
WHERE uprn = $1
ORDER BY lodgement_date DESC NULLS LAST, certificate_id
