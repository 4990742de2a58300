-- lookup_postcode_rows: the postcode directory (canonical "AA9 9AA") in the form GET
-- /postcodes/{postcode} and the location resolver read: written by the ETL as
-- lookup-postcodes.rows (lib/files/lookup-tables-format.ts), or for an older build held by
-- postcode in the process (service/lookups/packed-rows.ts). In postcode order: DuckDB's byte
-- order, which is JavaScript's `<` for the ASCII postcodes the keyed-rows file requires.
SELECT postcode, outcode, sector, lat, lng, country, la_code, ward, terminated,
       date_terminated::VARCHAR AS date_terminated, address_count, median_price_5y, sales_5y, source
FROM postcodes
ORDER BY postcode
