-- lookup_type_months: monthly median price and count of one property type's sales in an area
-- ($1 = "sector:BS1 4:D", "outcode:BS1:F" or "district:E06000023:T") from the first day of month $2 (a DATE).
SELECT month, median_price, sales
FROM lk_type_months
WHERE key = $1 AND month_start >= $2::DATE
ORDER BY month
