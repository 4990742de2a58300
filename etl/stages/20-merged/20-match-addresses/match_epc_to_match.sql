-- Certificates whose own UPRN is missing or unknown to the address base.
SELECT e.certificate_id, e.uprn, e.postcode, e.posttown AS town, e.address1, e.address2, e.address3
FROM stg_epc e WHERE e.uprn IS NULL OR e.uprn NOT IN (SELECT uprn FROM addresses)
