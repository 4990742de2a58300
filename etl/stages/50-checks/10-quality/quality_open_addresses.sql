-- What an open-data address base got right against the region's truth (docs/open-data.md):
-- the true homes, those given an address, addresses of a UPRN that is no true home (invented:
-- must be none), and addresses whose postcode is the home's true postcode.
WITH t AS (
  SELECT TRY_CAST(uprn AS BIGINT) AS uprn, postcode FROM read_csv($truth_properties, header = true, all_varchar = true)
)
SELECT
  (SELECT count(*) FROM t)::BIGINT AS true_homes,
  (SELECT count(*) FROM addresses a JOIN t USING (uprn))::BIGINT AS homes_with_address,
  (SELECT count(*) FROM addresses a ANTI JOIN t USING (uprn))::BIGINT AS addresses_not_true_homes,
  (SELECT count(*) FROM addresses a JOIN t USING (uprn) WHERE a.postcode = t.postcode)::BIGINT AS postcode_agrees
