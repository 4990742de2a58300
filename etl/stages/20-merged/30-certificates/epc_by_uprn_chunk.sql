-- epc_by_uprn_chunk(): one row per UPRN from its certificates, for the UPRNs whose
-- hash(uprn) % chunks = chunk (certificates_cut), the latest lodged value winning per field
-- (a re-lodged certificate with a blank floor area keeps the earlier area). Two certificates
-- lodged the same day: the greater certificate_id wins (unique after epc_linked; staging
-- rejects a blank lodgement date, which would otherwise sort last in the key).
-- Windows, not arg_max: DuckDB (1.5) cannot spill an aggregate whose state holds a long
-- string or a struct key, and at 10M addresses this ran out of its memory limit; a window
-- sorts each UPRN's certificates and spills. In chunks, as epc_linked, for the window's
-- own buffers: 1.18M certificates in one window failed under 70 MB.
CREATE OR REPLACE TEMP MACRO epc_by_uprn_chunk() AS TABLE
SELECT
  uprn,
  count(*) OVER u AS certificate_count,
  max(lodgement_date) OVER u AS latest_lodgement_date,
  certificate_id AS latest_certificate_id,
  last_value(property_type IGNORE NULLS) OVER w AS epc_property_type,
  last_value(CASE WHEN built_form NOT IN ('NO DATA!', 'Not Recorded') THEN built_form END IGNORE NULLS) OVER w AS built_form,
  last_value(CASE WHEN total_floor_area_m2 > 0 THEN total_floor_area_m2 END IGNORE NULLS) OVER w AS floor_area_m2,
  last_value(CASE WHEN number_habitable_rooms > 0 THEN number_habitable_rooms END IGNORE NULLS) OVER w AS habitable_rooms,
  last_value(construction_age_band IGNORE NULLS) OVER w AS construction_age,
  last_value(current_energy_rating IGNORE NULLS) OVER w AS epc_current_rating,
  last_value(potential_energy_rating IGNORE NULLS) OVER w AS epc_potential_rating,
  last_value(current_energy_efficiency IGNORE NULLS) OVER w AS epc_current_efficiency
FROM epc_linked
WHERE uprn IS NOT NULL AND hash(uprn) % getvariable('certificates_cut').chunks = getvariable('certificates_cut').chunk
WINDOW u AS (PARTITION BY uprn),
  w AS (PARTITION BY uprn ORDER BY lodgement_date, certificate_id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
QUALIFY row_number() OVER (PARTITION BY uprn ORDER BY lodgement_date DESC, certificate_id DESC) = 1
