-- What the open-data address base covers: UPRNs with an address, of them those with a point,
-- and the UPRNs OS Open UPRN knows that no certificate gives an address (a point only).
SELECT
  (SELECT count(*) FROM addresses) AS uprns_with_address,
  (SELECT count(*) FROM addresses WHERE lat IS NOT NULL) AS uprns_with_address_and_point,
  (SELECT count(DISTINCT uprn) FROM stg_os_uprn) AS os_open_uprns,
  (SELECT count(DISTINCT uprn) FROM stg_os_uprn WHERE uprn NOT IN (SELECT uprn FROM addresses)) AS uprns_point_only,
  (SELECT count(*) FROM address_aliases) AS aliases
