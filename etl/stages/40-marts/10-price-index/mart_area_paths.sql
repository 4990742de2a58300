-- mart_area_paths: sales per area path (country, district, outcode, sector), to find every
-- area with sales and its parent.
SELECT country, district, outcode, sector, count(*)::INTEGER AS n
FROM mart_market_sales
GROUP BY ALL
ORDER BY ALL
