-- lookup_sales_table_drop: lk_sales once what is made from it is made (it held every sale twice).
DROP TABLE lk_sales
