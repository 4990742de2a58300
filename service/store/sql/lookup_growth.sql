-- lookup_growth: one area's index growth and recent sales (price_growth, in memory), by key "level:code".
SELECT area_level, area_code, parent_code, as_of_month, index, growth_1y, growth_3y, growth_5y, growth_10y,
       sales_12m, median_price_12m, repeat_pairs, enough_sales
FROM lk_growth
WHERE key = $1
