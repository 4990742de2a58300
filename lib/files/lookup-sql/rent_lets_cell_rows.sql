-- rent_lets_cell_rows: every whole-property let (the rows of rents_lets_all) by 500 m grid cell,
-- written by the ETL as rent-lets.rows (lib/files/evidence-files.ts) and searched by radius
-- where it lies. In cell order, then a total order of the row's values: the file's order is
-- deterministic (the service sorts what its sums depend on).
SELECT cell_key(l.lat, l.lng, 500) AS cell, l.lat, l.lng, l.rent_pcm, least(l.bedrooms, 255) AS bedrooms,
       CASE WHEN l.property_type = 'flat' THEN 1 ELSE 0 END AS flat, l.let_date::VARCHAR AS let_date,
       l.uprn::DOUBLE AS uprn, p.floor_area_sqft
FROM rent_lets l LEFT JOIN properties p ON p.uprn = l.uprn
WHERE l.let_type = 'whole' AND l.lat IS NOT NULL
ORDER BY cell, l.lat, l.lng, l.let_date, l.evidence_id
