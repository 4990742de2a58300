-- str_seasonality_all: every LA's month-of-year demand and price indices (and '*', build-wide),
-- loaded once per build for the STR estimate's monthly breakdown, with its source (reviews,
-- build_wide or national_prior; a build from before the column has none: read as reviews).
SELECT *
FROM str_seasonality
ORDER BY la_code, month_of_year
