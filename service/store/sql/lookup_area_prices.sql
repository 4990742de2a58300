-- lookup_area_prices: £ per sq ft of an area's standard sales of the last 24 months, all types (price_per_sqft).
SELECT sales_count, median_gbp_sqft, p25_gbp_sqft, p75_gbp_sqft
FROM price_per_sqft
WHERE area_level = $1 AND area_code = $2 AND property_type = 'All' AND segment = 'all'
