-- lookup_area_rents: an area's long-term rents by bedrooms and its gross yields (key "level:code").
SELECT bedrooms, source, median_pcm, sample_size, evidence_count, gross_yield_pct, yield_median_price, yield_sales
FROM lk_rents WHERE key = $1 ORDER BY bedrooms
