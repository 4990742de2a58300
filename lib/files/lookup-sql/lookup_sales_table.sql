-- lookup_sales_table: every matched sale with its home's area path (which brings the price to
-- today by the local index), made once per build: the per-type monthly medians
-- (lookup_type_months_table) and the packed rows GET /properties/{uprn}/sales reads
-- (lookup_sales_rows) are made from it, then it is dropped (lookup_sales_tables_drop). Run by the
-- ETL (lookup-tables stage) and, for an older build without the files, by the service.
CREATE TABLE lk_sales AS
SELECT s.uprn, s.transaction_id, s.price, s.date, s.property_type, s.new_build, s.tenure, s.category,
       (year(s.date) * 12 + month(s.date) - 1)::INTEGER AS month_no,
       p.sector, p.outcode, p.la_code, p.country
FROM sales s LEFT JOIN properties p USING (uprn)
ORDER BY s.uprn, s.date DESC, s.transaction_id
