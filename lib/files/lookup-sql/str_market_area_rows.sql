-- str_market_area_rows: each listing of the market set (rn as str_market_file_rows numbers
-- it) under `S:<sector>` and `O:<outcode>`, ascending rn within an area (the in-heap set's
-- order).
WITH l AS (
  SELECT CAST(row_number() OVER (ORDER BY id) - 1 AS INTEGER) AS rn, sector, outcode
  FROM str_listings WHERE lat IS NOT NULL AND lng IS NOT NULL
)
SELECT area, rn FROM (
  SELECT 'S:' || sector AS area, rn FROM l WHERE sector IS NOT NULL AND sector <> ''
  UNION ALL
  SELECT 'O:' || outcode AS area, rn FROM l WHERE outcode IS NOT NULL AND outcode <> ''
) ORDER BY area, rn
