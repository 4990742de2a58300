-- lookup_area_rents: each area's long-term rents by bedrooms and its gross yields (key "level:code"),
-- written by the ETL as lookup-area-rents.rows (lib/files/lookup-tables-format.ts), or for an
-- older build held in the process (service/lookups/keyed.ts).
SELECT key, bedrooms, source, median_pcm, mean_pcm, p25_pcm, p75_pcm, prior_level, sample_size, evidence_count, gross_yield_pct, yield_median_price, yield_sales
FROM lk_rents ORDER BY key, bedrooms
