-- designation_rows: every feature containing a UPRN, by UPRN in lookup order, as the ETL writes
-- designations.rows (lib/files/designations-file.ts); the same rows and order as the service's
-- in-heap index of an older build reads (service/store/sql/designations_all.sql).
SELECT uprn::DOUBLE AS uprn, dataset, entity::DOUBLE AS entity, reference, name, flood_risk_level::DOUBLE AS flood_risk_level
FROM uprn_designations
ORDER BY uprn, dataset, entity NULLS LAST, reference NULLS LAST
