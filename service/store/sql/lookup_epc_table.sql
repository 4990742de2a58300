-- lookup_epc_table: the certificates linked to a UPRN in memory, indexed by UPRN, for
-- GET /properties/{uprn}/epc.
CREATE TABLE lk_epc AS
SELECT uprn, certificate_id, lodgement_date, inspection_date, current_energy_rating, potential_energy_rating,
       current_energy_efficiency, potential_energy_efficiency, total_floor_area_m2, number_habitable_rooms, property_type, built_form,
       construction_age_band, main_fuel, tenure
FROM epc_linked
WHERE uprn IS NOT NULL
ORDER BY uprn, lodgement_date DESC, certificate_id;
CREATE INDEX lk_epc_uprn ON lk_epc (uprn);
