-- lookup_index_table: the monthly price index of every area, keyed "level:code" (dropped once
-- read: lookup_index_drop).
CREATE TABLE lk_index AS
SELECT area_level || ':' || area_code AS key, area_level, area_code, month, parent_code, index,
       sales_count, median_price, sales_12m, repeat_pairs, enough_sales
FROM price_index_monthly
ORDER BY key, month
