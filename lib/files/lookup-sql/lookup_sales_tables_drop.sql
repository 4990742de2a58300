-- lookup_sales_tables_drop: the sales and per-type month tables once their rows are read
-- (lookup_sales_rows, lookup_type_months_rows): DuckDB need not keep them twice.
DROP TABLE lk_sales;
DROP TABLE lk_type_months
