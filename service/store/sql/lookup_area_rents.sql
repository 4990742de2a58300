-- lookup_area_rents: an area's long-term rents by bedrooms and its gross yields (rents_area, yields_area).
SELECT r.bedrooms, r.source, r.median_pcm, r.sample_size, r.evidence_count,
       y.gross_yield_pct, y.median_price AS yield_median_price, y.sales_count AS yield_sales
FROM rents_area r
LEFT JOIN yields_area y ON y.area_level = r.area_level AND y.area_code = r.area_code AND y.bedrooms = r.bedrooms
WHERE r.area_level = $1 AND r.area_code = $2
ORDER BY r.bedrooms
