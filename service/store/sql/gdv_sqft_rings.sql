-- £ per sq ft of sales of one kind ($5, house/flat) around a site ($1 lat, $2 lng), in rings of
-- 500 m, 1, 2, 5 and 10 km (great-circle), new build and resale apart: count and median.
-- $3/$4: half-sides in degrees (lat, lng) of the 10 km bounding box that prefilters.
WITH near AS (
  SELECT new_build, gbp_sqft,
         12742000 * asin(sqrt(pow(sin(radians(lat - $1::DOUBLE) / 2), 2)
           + cos(radians($1::DOUBLE)) * cos(radians(lat)) * pow(sin(radians(lng - $2::DOUBLE) / 2), 2))) AS d
  FROM sqft_sales
  WHERE kind = $5::VARCHAR
    AND lat BETWEEN $1::DOUBLE - $3::DOUBLE AND $1::DOUBLE + $3::DOUBLE
    AND lng BETWEEN $2::DOUBLE - $4::DOUBLE AND $2::DOUBLE + $4::DOUBLE
)
SELECT r.radius_m, n.new_build, count(*)::INTEGER AS n, round(median(n.gbp_sqft), 2) AS median_gbp_sqft
FROM (VALUES (500), (1000), (2000), (5000), (10000)) AS r(radius_m)
JOIN near n ON n.d <= r.radius_m
GROUP BY ALL
ORDER BY ALL
