-- Planning features in force on $today, for the point-in-polygon stage.
-- In force: no end date, or an end date after $today. A partial end date (YYYY or YYYY-MM)
-- is read as the last day of that period, so a designation is never dropped early.
-- Ordered so that designation rows come out in the same order on every run.
SELECT dataset, entity, reference, name, flood_risk_level, geometry
FROM stg_planning
WHERE end_date IS NULL
   OR (CASE length(end_date)
         WHEN 4 THEN end_date || '-12-31'
         WHEN 7 THEN end_date || '-31'
         ELSE end_date
       END) > $today
ORDER BY dataset, entity NULLS LAST, reference NULLS LAST, _file_no;
