-- Area rents and gross yields by bedrooms (rents_area, yields_area), for the evidence of
-- GET /sourcing/deals.
SELECT r.area_level, r.area_code, r.bedrooms, r.median_pcm, r.source, r.sample_size,
       y.gross_yield_pct, y.sales_count AS yield_sales
FROM rents_area r LEFT JOIN yields_area y USING (area_level, area_code, bedrooms)
WHERE r.bedrooms IS NOT NULL AND r.median_pcm IS NOT NULL
