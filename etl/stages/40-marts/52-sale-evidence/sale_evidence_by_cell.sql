-- sale_evidence_by_cell: the located homes' sales by grid cell (lib/geo/grid-cells.ts: localMetres
-- about 54°N, cells of $cell_m metres; the same double operations in the same order as
-- cellKeyOfMetres, which the writer checks), then UPRN, month and price (date and transaction id: the same bytes every build).
SELECT (floor(lat * 110540::DOUBLE / $cell_m::DOUBLE) + $cell_offset::DOUBLE) * $cell_span::DOUBLE
         + (floor(lng * 111320::DOUBLE * $cos54::DOUBLE / $cell_m::DOUBLE) + $cell_offset::DOUBLE) AS cell,
       uprn, price, month, latest, lat, lng, type_code, floor_area_sqft, age_id, postcode_id, path_id
FROM sale_evidence_t
WHERE lat IS NOT NULL AND lng IS NOT NULL
ORDER BY cell, uprn, month, price, date, transaction_id
