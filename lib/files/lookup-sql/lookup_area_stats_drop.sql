-- lookup_area_stats_drop: the growth, £ per sq ft and rents tables once their rows are read
-- (lookup_growth, lookup_area_prices, lookup_area_rents).
DROP TABLE lk_growth;
DROP TABLE lk_sqft;
DROP TABLE lk_rents
