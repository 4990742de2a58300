-- epc_by_uprn: one row per UPRN from its certificates, the latest lodged value winning per
-- field (a re-lodged certificate with a blank floor area keeps the earlier area). Two
-- certificates lodged the same day: the greater certificate_id wins (unique after epc_linked;
-- staging rejects a blank lodgement date, which would otherwise sort last in the key).
CREATE OR REPLACE TABLE epc_by_uprn AS
SELECT
  uprn,
  count(*) AS certificate_count,
  max(lodgement_date) AS latest_lodgement_date,
  arg_max(certificate_id, (lodgement_date, certificate_id)) AS latest_certificate_id,
  arg_max(property_type, (lodgement_date, certificate_id)) FILTER (WHERE property_type IS NOT NULL) AS epc_property_type,
  arg_max(built_form, (lodgement_date, certificate_id)) FILTER (WHERE built_form IS NOT NULL AND built_form NOT IN ('NO DATA!', 'Not Recorded')) AS built_form,
  arg_max(total_floor_area_m2, (lodgement_date, certificate_id)) FILTER (WHERE total_floor_area_m2 > 0) AS floor_area_m2,
  arg_max(number_habitable_rooms, (lodgement_date, certificate_id)) FILTER (WHERE number_habitable_rooms > 0) AS habitable_rooms,
  arg_max(construction_age_band, (lodgement_date, certificate_id)) FILTER (WHERE construction_age_band IS NOT NULL) AS construction_age,
  arg_max(current_energy_rating, (lodgement_date, certificate_id)) FILTER (WHERE current_energy_rating IS NOT NULL) AS epc_current_rating,
  arg_max(potential_energy_rating, (lodgement_date, certificate_id)) FILTER (WHERE potential_energy_rating IS NOT NULL) AS epc_potential_rating,
  arg_max(current_energy_efficiency, (lodgement_date, certificate_id)) FILTER (WHERE current_energy_efficiency IS NOT NULL) AS epc_current_efficiency
FROM epc_linked
WHERE uprn IS NOT NULL
GROUP BY uprn
