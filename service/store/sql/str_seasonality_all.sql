-- str_seasonality_all: every LA's month-of-year demand and price indices (and '*', build-wide),
-- loaded once per build for the STR estimate's monthly breakdown.
SELECT la_code, month_of_year, demand_index, adr_index
FROM str_seasonality
ORDER BY la_code, month_of_year
