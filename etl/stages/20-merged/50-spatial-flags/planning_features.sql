-- planning_features: the planning and flood features in force at $today (the rule of
-- features_in_force.sql: no end date, or one after $today, a partial end date read as the last
-- day of its period) with their geometry, so the service can answer a point and give entry dates.
CREATE OR REPLACE TABLE planning_features AS
SELECT dataset, entity, reference, name, entry_date, start_date, end_date, flood_risk_level,
       min_lng, min_lat, max_lng, max_lat, geometry
FROM stg_planning
WHERE end_date IS NULL
   OR (CASE length(end_date)
         WHEN 4 THEN end_date || '-12-31'
         WHEN 7 THEN end_date || '-31'
         ELSE end_date
       END) > $today
ORDER BY dataset, entity NULLS LAST, reference NULLS LAST, _file_no
