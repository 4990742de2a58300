-- lookup_type_months_rows: every area's monthly median price and sales of each property type
-- ("level:code:type" keys, months in order) for GET /prices/trends with a property_type:
-- written by the ETL as lookup-type-months.rows (lib/files/lookup-tables-format.ts), or for an
-- older build held in the process (service/lookups/packed-rows.ts).
SELECT key, month, median_price, sales
FROM lk_type_months
ORDER BY key, month
