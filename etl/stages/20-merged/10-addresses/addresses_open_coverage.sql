-- What the open-data address base covers: UPRNs with an address, of them those with a point,
-- the UPRNs OS Open UPRN knows that no certificate gives an address (a point only), and the
-- certificates' UPRNs OS Open UPRN does not know (no point: left out).
SELECT
  (SELECT count(*) FROM addresses) AS uprns_with_address,
  (SELECT count(*) FROM addresses WHERE lat IS NOT NULL) AS uprns_with_address_and_point,
  (SELECT count(DISTINCT uprn) FROM stg_os_uprn) AS os_open_uprns,
  (SELECT count(DISTINCT uprn) FROM stg_os_uprn WHERE uprn NOT IN (SELECT uprn FROM addresses)) AS uprns_point_only,
  (SELECT count(*) FROM address_aliases) AS aliases,
  (SELECT count(DISTINCT uprn) FROM open_address_certs WHERE uprn NOT IN (SELECT uprn FROM stg_os_uprn)) AS certificate_uprns_without_point
