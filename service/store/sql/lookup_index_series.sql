-- lookup_index_series: one area's monthly index, oldest month first.
SELECT area_level, area_code, month, parent_code, index, sales_count, median_price, sales_12m, repeat_pairs, enough_sales
FROM lk_index WHERE key = $1 ORDER BY month
