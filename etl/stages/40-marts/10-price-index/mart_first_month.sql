-- Month number of the build's first market sale (null when there is none).
SELECT min(month_no)::INTEGER AS m FROM mart_market_sales
