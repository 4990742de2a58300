-- str_listing_area: the nearest postcode to each listing within radius_m metres, address-base
-- centroids before directory-only postcodes (haversine distance, mean Earth radius).
CREATE OR REPLACE TABLE str_listing_area AS
WITH l AS (
  SELECT id, latitude AS lat, longitude AS lng,
         CAST(floor(latitude / 0.01) AS INTEGER) AS cy, CAST(floor(longitude / 0.02) AS INTEGER) AS cx
  FROM str_listing_src
),
near AS (
  SELECT l.id, p.postcode, p.la_code, p.country, p.priority,
         2 * 6371008.8 * asin(sqrt(
           pow(sin(radians(p.lat - l.lat) / 2), 2)
           + cos(radians(l.lat)) * cos(radians(p.lat)) * pow(sin(radians(p.lng - l.lng) / 2), 2))) AS distance_m
  FROM l
  CROSS JOIN (SELECT unnest([-1, 0, 1]) AS dy) y
  CROSS JOIN (SELECT unnest([-1, 0, 1]) AS dx) x
  JOIN str_postcode_points p ON p.cy = l.cy + y.dy AND p.cx = l.cx + x.dx
)
SELECT id, postcode, la_code, country, round(distance_m, 1) AS distance_m,
       CASE priority WHEN 0 THEN 'addresses' ELSE 'postcode_directory' END AS postcode_source
FROM near
WHERE distance_m <= $radius_m
QUALIFY row_number() OVER (PARTITION BY id ORDER BY priority, distance_m, postcode) = 1
