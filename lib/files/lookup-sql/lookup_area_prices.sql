-- lookup_area_prices: £ per sq ft of each area's standard sales of the last 24 months, all types
-- (key "level:code"): written by the ETL as lookup-area-sqft.rows (lib/files/lookup-tables-format.ts),
-- or for an older build held in the process (service/lookups/keyed.ts).
SELECT key, sales_count, median_gbp_sqft, p25_gbp_sqft, p75_gbp_sqft FROM lk_sqft ORDER BY key
