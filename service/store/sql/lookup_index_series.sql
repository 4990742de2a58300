-- lookup_index_series: every area's monthly index, oldest month first within each key; loaded whole
-- into the heap when the build opens (service/lookups/keyed.ts).
SELECT key, area_level, area_code, month, parent_code, index, sales_count, median_price, sales_12m, repeat_pairs, enough_sales
FROM lk_index ORDER BY key, month
