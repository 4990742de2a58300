-- lookup_growth: every area's index growth and recent sales (price_growth, in memory), keyed "level:code";
-- written by the ETL as lookup-area-growth.rows (lib/files/lookup-tables-format.ts), or for an
-- older build held in the process (service/lookups/keyed.ts).
SELECT key, area_level, area_code, parent_code, as_of_month, index, growth_1y, growth_3y, growth_5y, growth_10y,
       sales_12m, median_price_12m, repeat_pairs, enough_sales
FROM lk_growth
ORDER BY key
