-- Every planning and flood feature containing one UPRN ($1, BIGINT), with its name and
-- reference, in a stable order (dataset, then entity).
SELECT dataset, entity, reference, name, flood_risk_level
FROM uprn_designations
WHERE uprn = $1
ORDER BY dataset, entity NULLS LAST, reference NULLS LAST
