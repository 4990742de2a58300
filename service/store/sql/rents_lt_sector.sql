-- Long-term rents of a postcode sector ($1): whole-property lets of the build's 24 months by
-- bedroom group (4 = 4+); $2 property type (house/flat) or NULL; $3 bedroom group or NULL.
SELECT least(bedrooms, 4)::INTEGER AS bedrooms, count(*)::INTEGER AS sample_size,
       round(median(rent_pcm), 2) AS median_pcm, round(avg(rent_pcm), 2) AS mean_pcm,
       round(quantile_cont(rent_pcm, 0.25), 2) AS p25_pcm, round(quantile_cont(rent_pcm, 0.75), 2) AS p75_pcm,
       min(let_date)::VARCHAR AS first_let, max(let_date)::VARCHAR AS last_let
FROM rent_lets
WHERE outcode = split_part($1::VARCHAR, ' ', 1) AND sector = $1::VARCHAR AND let_type = 'whole'
  AND ($2::VARCHAR IS NULL OR property_type = $2::VARCHAR)
  AND ($3::INTEGER IS NULL OR least(bedrooms, 4) = $3::INTEGER)
GROUP BY 1
ORDER BY 1
