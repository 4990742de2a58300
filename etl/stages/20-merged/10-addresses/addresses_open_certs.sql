-- addresses_open_certs: without an AddressBase file, the certificates that can give a UPRN
-- its address (docs/open-data.md): every certificate that carries a UPRN, a first address
-- line and a postcode in the published form, newest first per UPRN (rank 1 is the address,
-- the others its variants, kept as search aliases). Ties: the later certificate id.
CREATE OR REPLACE TABLE open_address_certs AS
SELECT
  uprn, certificate_id, address1, address2, address3, postcode, posttown, country,
  row_number() OVER (PARTITION BY uprn ORDER BY lodgement_date DESC NULLS LAST, certificate_id DESC) AS rank
FROM stg_epc
WHERE uprn IS NOT NULL AND uprn > 0
  AND nullif(trim(address1), '') IS NOT NULL
  AND regexp_matches(postcode, '^[A-Z]{1,2}[0-9][A-Z0-9]? [0-9][A-Z]{2}$')
