-- sales: every current price-paid sale matched to a UPRN (the sales history mart).
CREATE OR REPLACE TABLE sales AS
SELECT
  m.uprn,
  p.transaction_id,
  p.price,
  p.date::DATE AS date,
  p.property_type,
  p.new_build,
  p.tenure,
  p.category,
  p.postcode AS recorded_postcode,
  m.method AS match_method,
  m.score AS match_score
FROM ppd_current p
JOIN sale_matches m ON m.id = p.transaction_id
WHERE m.uprn IS NOT NULL
