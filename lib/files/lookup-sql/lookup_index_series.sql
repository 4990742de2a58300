-- lookup_index_series: every area's monthly index, oldest month first within each key: written by
-- the ETL as lookup-area-index.rows (lib/files/lookup-tables-format.ts), or for an older build
-- held in the process (service/lookups/keyed.ts).
SELECT key, area_level, area_code, month, parent_code, index, sales_count, median_price, sales_12m, repeat_pairs, enough_sales
FROM lk_index ORDER BY key, month
