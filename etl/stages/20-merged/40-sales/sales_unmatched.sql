-- sales_unmatched: sales no UPRN could be given, kept with the reason, never dropped.
CREATE OR REPLACE TABLE sales_unmatched AS
SELECT p.transaction_id, p.price, p.date::DATE AS date, p.postcode, p.saon, p.paon, p.street, p.town,
       p.property_type, p.new_build, p.tenure, p.category, m.reason
FROM ppd_current p
JOIN sale_matches m ON m.id = p.transaction_id
WHERE m.uprn IS NULL
