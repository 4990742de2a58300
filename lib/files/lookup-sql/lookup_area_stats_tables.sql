-- lookup_area_stats_tables: the small per-area marts the area, trends and postcode lookups read,
-- keyed "level:code", made by the ETL (or when an older build opens) and dropped once read
-- (lookup_area_stats_drop):
-- index growth (price_growth), £ per sq ft of all types and segments (price_per_sqft), rents by
-- bedrooms with their yields (rents_area, yields_area).
CREATE TABLE lk_growth AS
SELECT area_level || ':' || area_code AS key, area_level, area_code, parent_code, as_of_month, index,
       growth_1y, growth_3y, growth_5y, growth_10y, sales_12m, median_price_12m, repeat_pairs, enough_sales
FROM price_growth;
CREATE TABLE lk_sqft AS
SELECT area_level || ':' || area_code AS key, sales_count, median_gbp_sqft, p25_gbp_sqft, p75_gbp_sqft
FROM price_per_sqft
WHERE property_type = 'All' AND segment = 'all';
CREATE TABLE lk_rents AS
SELECT r.area_level || ':' || r.area_code AS key, r.bedrooms, r.source, r.median_pcm, r.mean_pcm, r.p25_pcm, r.p75_pcm, r.prior_level, r.sample_size, r.evidence_count,
       y.gross_yield_pct, y.median_price AS yield_median_price, y.sales_count AS yield_sales
FROM rents_area r
LEFT JOIN yields_area y ON y.area_level = r.area_level AND y.area_code = r.area_code AND y.bedrooms = r.bedrooms
ORDER BY key, r.bedrooms
