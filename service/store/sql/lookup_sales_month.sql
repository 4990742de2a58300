-- lookup_sales_month: the latest month of Price Paid the build's statistics run to (price_growth's as-of month).
SELECT max(as_of_month) AS month FROM price_growth
