-- rent_lets_area_rows: every whole-property let (the rows of rents_lets_all) under its sector
-- ('S:<sector>') and its outcode ('O:<outcode>'), written by the ETL as rent-lets-areas.rows
-- (lib/files/evidence-files.ts): GET /rents/long-term by sector or outcode reads one key's run.
-- Sectors and outcodes are ASCII (the keyed-rows file's text keys must be).
WITH lets AS (
  SELECT l.sector, l.outcode, l.rent_pcm, least(l.bedrooms, 255) AS bedrooms,
         CASE WHEN l.property_type = 'flat' THEN 1 ELSE 0 END AS flat,
         date_diff('day', DATE '1970-01-01', l.let_date) AS let_day, l.let_date, l.evidence_id
  FROM rent_lets l
  WHERE l.let_type = 'whole' AND l.lat IS NOT NULL
)
SELECT area, rent_pcm, bedrooms, flat, let_day FROM (
  SELECT 'S:' || sector AS area, * FROM lets WHERE sector IS NOT NULL
  UNION ALL
  SELECT 'O:' || outcode AS area, * FROM lets WHERE outcode IS NOT NULL
)
ORDER BY area, let_date, evidence_id
