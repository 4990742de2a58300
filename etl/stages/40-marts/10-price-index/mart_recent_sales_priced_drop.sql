DROP TABLE IF EXISTS mart_recent_sales_priced
