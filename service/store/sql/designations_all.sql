-- Every row of a build's uprn_designations.parquet ($path), in lookup order, for the
-- in-memory designation index the risks endpoint reads (service/records/designations.ts).
SELECT uprn, dataset, entity, reference, name, flood_risk_level
FROM read_parquet($path)
ORDER BY uprn, dataset, entity NULLS LAST, reference NULLS LAST
