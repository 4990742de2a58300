-- rent_lets_cell_rows: every whole-property let (the rows of rents_lets_all) by 500 m grid cell,
-- written by the ETL as rent-lets.rows (lib/files/evidence-files.ts) and searched by radius
-- where it lies at fixed offsets: no column null (UPRN 0 where the evidence named none, floor
-- area NaN where unknown, as the heap holds them; the let date as days since 1970). In cell
-- order, then a total order: the file's order is deterministic (the service sorts what its sums
-- depend on).
SELECT cell_key(l.lat, l.lng, 500) AS cell, l.lat, l.lng, l.rent_pcm, least(l.bedrooms, 255) AS bedrooms,
       CASE WHEN l.property_type = 'flat' THEN 1 ELSE 0 END AS flat, date_diff('day', DATE '1970-01-01', l.let_date) AS let_day,
       coalesce(l.uprn::DOUBLE, 0) AS uprn, coalesce(p.floor_area_sqft, 'NaN'::DOUBLE) AS floor_area_sqft
FROM rent_lets l LEFT JOIN properties p ON p.uprn = l.uprn
WHERE l.let_type = 'whole' AND l.lat IS NOT NULL
ORDER BY cell, l.lat, l.lng, l.let_date, l.evidence_id
