-- lookup_postcode: one postcode of the directory (canonical "AA9 9AA"), from the in-memory table.
SELECT postcode, outcode, sector, lat, lng, country, la_code, ward, terminated,
       date_terminated::VARCHAR AS date_terminated, address_count, median_price_5y, sales_5y, source
FROM postcodes
WHERE postcode = $1
