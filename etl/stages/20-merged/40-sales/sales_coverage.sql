-- What the sales cover (docs/open-data.md): current sales, those given a UPRN, and those not,
-- with how many distinct homes the unmatched ones are (by their recorded address) and how many
-- the postcode directory can still place in an area's statistics.
SELECT
  (SELECT count(*) FROM sales) + (SELECT count(*) FROM sales_unmatched) AS sales,
  (SELECT count(*) FROM sales) AS matched_to_uprn,
  (SELECT count(*) FROM sales_unmatched) AS without_uprn,
  (SELECT count(DISTINCT concat_ws('|', postcode, saon, paon, street)) FROM sales_unmatched) AS homes_known_only_from_a_sale,
  (SELECT count(*) FROM sales_unmatched u WHERE u.postcode IN (SELECT pcds FROM stg_onspd)) AS without_uprn_placed_by_postcode
