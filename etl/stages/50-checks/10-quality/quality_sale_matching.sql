-- Matching quality against the synthetic region's ground truth (truth/sales.csv): precision
-- is correct matches over all matches; recall is correct matches over sales whose address
-- truly has a UPRN (sales of addresses outside the address base have none).
WITH t AS (
  SELECT transaction_id, TRY_CAST(true_uprn AS BIGINT) AS true_uprn
  FROM read_csv($truth_sales, header = true, all_varchar = true)
)
SELECT
  count(*) FILTER (WHERE m.uprn IS NOT NULL)::BIGINT AS matched,
  count(*) FILTER (WHERE m.uprn IS NOT NULL AND m.uprn = t.true_uprn)::BIGINT AS correct,
  count(*) FILTER (WHERE t.true_uprn IS NOT NULL)::BIGINT AS matchable,
  count(*)::BIGINT AS sales
FROM sale_matches m
JOIN t ON t.transaction_id = m.id
