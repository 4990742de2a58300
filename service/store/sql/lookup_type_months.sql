-- lookup_type_months: monthly median price and count of one property type's sales (Price Paid
-- type code $2) in an area ($1 = "sector:BS1 4", "outcode:BS1" or "district:E06000023") from the first day
-- of month $3 (a DATE).
SELECT strftime(date, '%Y-%m') AS month, median(price) AS median_price, count(*)::INTEGER AS sales
FROM lk_sales
WHERE property_type = $2
  AND date >= $3::DATE
  AND CASE split_part($1, ':', 1)
        WHEN 'sector' THEN sector
        WHEN 'outcode' THEN outcode
        WHEN 'district' THEN la_code
      END = split_part($1, ':', 2)
GROUP BY 1
ORDER BY 1
