-- lookup_planning_features: the build's planning and flood features in force, with geometry, for
-- the point index of GET /flood-risk and GET /planning/constraints (service/lookups/planning.ts).
SELECT dataset, entity, reference, name, entry_date, start_date, flood_risk_level, geometry
FROM planning_features
ORDER BY dataset, entity NULLS LAST, reference NULLS LAST
