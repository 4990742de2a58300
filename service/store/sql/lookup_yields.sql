-- lookup_yields: each area's gross yields by bedrooms (yields_area, key "level:code"), loaded
-- whole into the heap for GET /yields.
SELECT area_level || ':' || area_code AS key, bedrooms, gross_yield_pct, median_rent_pcm, rent_source, rent_sample_size,
       rent_prior_level, median_price, sales_count
FROM yields_area ORDER BY key, bedrooms
