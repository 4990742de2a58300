-- sqft_sales_cell_rows: every sale with a floor area (the rows of gdv_sqft_sales_all) by 500 m
-- grid cell, written by the ETL as sqft-sales.rows (lib/files/evidence-files.ts) and searched by
-- radius where it lies (POST /valuations/development-gdv). Cell order, then the row's values.
SELECT cell_key(lat, lng, 500) AS cell, lat, lng, gbp_sqft,
       CASE WHEN kind = 'flat' THEN 1 ELSE 0 END AS flat, CASE WHEN new_build = true THEN 1 ELSE 0 END AS new_build
FROM sqft_sales WHERE lat IS NOT NULL AND gbp_sqft > 0
ORDER BY cell, lat, lng, gbp_sqft, flat, new_build
