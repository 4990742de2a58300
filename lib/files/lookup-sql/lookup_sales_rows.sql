-- lookup_sales_rows: every matched sale with its home's area path, in the form GET
-- /properties/{uprn}/sales reads: written by the ETL as lookup-sales.rows
-- (lib/files/lookup-tables-format.ts), or for an older build held by UPRN in the process
-- (service/lookups/packed-rows.ts); each UPRN's newest first, ties by transaction id.
SELECT uprn::DOUBLE AS uprn, transaction_id, price, date::VARCHAR AS date, month_no, property_type, new_build, tenure, category,
       sector, outcode, la_code, country
FROM lk_sales
ORDER BY uprn, date DESC, transaction_id
