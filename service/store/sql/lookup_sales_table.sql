-- lookup_sales_table: every matched sale in memory, indexed by UPRN, for GET /properties/{uprn}/sales
-- (the sales view is Parquet: a point lookup there decompresses a whole row group). With each
-- home's area path, which brings the price to today by the local index.
CREATE TABLE lk_sales AS
SELECT s.uprn, s.transaction_id, s.price, s.date, s.property_type, s.new_build, s.tenure, s.category,
       (year(s.date) * 12 + month(s.date) - 1)::INTEGER AS month_no,
       p.sector, p.outcode, p.la_code, p.country
FROM sales s LEFT JOIN properties p USING (uprn)
ORDER BY s.uprn, s.date DESC, s.transaction_id;
CREATE INDEX lk_sales_uprn ON lk_sales (uprn);
