-- Every area's HMO yield (hmo_yields_area), loaded once per build by the HMO valuation.
SELECT area_level, area_code, gross_yield_pct, p25_yield_pct, p75_yield_pct, sales_count FROM hmo_yields_area
