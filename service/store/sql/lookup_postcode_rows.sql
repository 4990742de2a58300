-- lookup_postcode_rows: the postcode directory (canonical "AA9 9AA") in the form GET
-- /postcodes/{postcode} and the location resolver read, held by postcode in the process
-- (service/lookups/packed-rows.ts).
SELECT postcode, outcode, sector, lat, lng, country, la_code, ward, terminated,
       date_terminated::VARCHAR AS date_terminated, address_count, median_price_5y, sales_5y, source
FROM postcodes
