-- lookup_property_sales: the sales of one UPRN, newest first (ties by transaction id).
SELECT transaction_id, price, date::VARCHAR AS date, month_no, property_type, new_build, tenure, category,
       sector, outcode, la_code, country
FROM lk_sales
WHERE uprn = $1
ORDER BY date DESC, transaction_id
