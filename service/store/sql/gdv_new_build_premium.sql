-- New-build premium measured on the build: in each outcode with at least 5 new-build and 20
-- resale sales of a kind (house/flat) in sqft_sales, median new-build £/sq ft ÷ median resale
-- £/sq ft; per kind (and 'all'), the median of those ratios and how many outcodes gave one.
WITH per_outcode AS (
  SELECT kind, outcode,
         median(gbp_sqft) FILTER (WHERE new_build) AS nb, count(*) FILTER (WHERE new_build) AS n_nb,
         median(gbp_sqft) FILTER (WHERE NOT new_build) AS rs, count(*) FILTER (WHERE NOT new_build) AS n_rs
  FROM sqft_sales
  WHERE outcode IS NOT NULL
  GROUP BY ALL
),
ratios AS (SELECT kind, nb / rs AS ratio FROM per_outcode WHERE n_nb >= 5 AND n_rs >= 20)
SELECT kind, round(median(ratio), 4) AS premium, count(*)::INTEGER AS outcodes FROM ratios GROUP BY kind
UNION ALL
SELECT 'all', round(median(ratio), 4), count(*)::INTEGER FROM ratios
