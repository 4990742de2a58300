-- On an open-data build, a sale recorded at a live postcode of the base whose numbers match
-- nothing there is most likely a home without a certificate, not a home at another postcode:
-- the street search would give it a namesake (19 Oxford Street at BS1 1HN for the 19 Oxford
-- Street at BS1 1TN that has no certificate). So a street match to another postcode is
-- withdrawn where the recorded postcode has addresses (docs/open-data.md); a mistyped or
-- terminated postcode, which has none, still finds its home by its street.
UPDATE sale_matches SET uprn = NULL, method = NULL, score = NULL, reason = 'other_postcode_sparse_base'
WHERE method = 'street' AND id IN (
  SELECT m.id
  FROM sale_matches m
  JOIN ppd_current p ON p.transaction_id = m.id
  JOIN addresses a ON a.uprn = m.uprn
  WHERE m.method = 'street' AND a.postcode <> p.postcode
    AND p.postcode IN (SELECT postcode FROM addresses)
)
