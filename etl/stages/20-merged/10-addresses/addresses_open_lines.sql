-- The certificate lines the open-data address base is parsed from (open-address.ts): each
-- UPRN's newest well-formed certificate, and its other distinct wordings as variants.
SELECT uprn, rank, address1, address2, address3, postcode, posttown
FROM (
  SELECT *, row_number() OVER (PARTITION BY uprn, upper(concat_ws(',', address1, address2, address3)), postcode ORDER BY rank) AS dup
  FROM open_address_certs
)
WHERE dup = 1
ORDER BY uprn, rank
