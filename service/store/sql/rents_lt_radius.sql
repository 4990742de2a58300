-- Long-term rents within $3 metres (great-circle) of $1 lat, $2 lng; $4/$5 the half-sides of
-- the bounding box in degrees (lat, lng) that prefilters; $6 property type or NULL; $7 bedroom
-- group or NULL. As rents_lt_sector otherwise.
SELECT least(bedrooms, 4)::INTEGER AS bedrooms, count(*)::INTEGER AS sample_size,
       round(median(rent_pcm), 2) AS median_pcm, round(avg(rent_pcm), 2) AS mean_pcm,
       round(quantile_cont(rent_pcm, 0.25), 2) AS p25_pcm, round(quantile_cont(rent_pcm, 0.75), 2) AS p75_pcm,
       min(let_date)::VARCHAR AS first_let, max(let_date)::VARCHAR AS last_let
FROM rent_lets
WHERE let_type = 'whole'
  AND lat BETWEEN $1::DOUBLE - $4::DOUBLE AND $1::DOUBLE + $4::DOUBLE
  AND lng BETWEEN $2::DOUBLE - $5::DOUBLE AND $2::DOUBLE + $5::DOUBLE
  AND 12742000 * asin(sqrt(pow(sin(radians(lat - $1::DOUBLE) / 2), 2)
        + cos(radians($1::DOUBLE)) * cos(radians(lat)) * pow(sin(radians(lng - $2::DOUBLE) / 2), 2))) <= $3::DOUBLE
  AND ($6::VARCHAR IS NULL OR property_type = $6::VARCHAR)
  AND ($7::INTEGER IS NULL OR least(bedrooms, 4) = $7::INTEGER)
GROUP BY 1
ORDER BY 1
