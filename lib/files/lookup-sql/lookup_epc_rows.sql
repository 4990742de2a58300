-- lookup_epc_rows: every certificate linked to a UPRN, in the form GET /properties/{uprn}/epc
-- reads: written by the ETL as lookup-epc.rows (lib/files/lookup-tables-format.ts), or for an
-- older build held by UPRN in the process (service/lookups/packed-rows.ts); each UPRN's newest
-- lodgement first.
SELECT uprn::DOUBLE AS uprn, certificate_id, lodgement_date::VARCHAR AS lodgement_date, inspection_date::VARCHAR AS inspection_date,
       current_energy_rating, potential_energy_rating, current_energy_efficiency, potential_energy_efficiency, total_floor_area_m2,
       number_habitable_rooms, property_type, built_form, construction_age_band, main_fuel, tenure
FROM epc_linked
WHERE uprn IS NOT NULL
ORDER BY uprn, lodgement_date DESC NULLS LAST, certificate_id
