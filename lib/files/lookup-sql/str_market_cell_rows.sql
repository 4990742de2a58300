-- str_market_cell_rows: each listing of the market set (rn as str_market_file_rows numbers
-- it) by its 1 km grid cell (cell_key_macro.sql), ascending rn within a cell.
WITH l AS (
  SELECT CAST(row_number() OVER (ORDER BY id) - 1 AS INTEGER) AS rn, CAST(lat AS DOUBLE) AS lat, CAST(lng AS DOUBLE) AS lng
  FROM str_listings WHERE lat IS NOT NULL AND lng IS NOT NULL
)
SELECT cell_key(lat, lng, 1000) AS cell, rn, lat, lng FROM l ORDER BY cell, rn
