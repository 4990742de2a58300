-- hmo_licences: every licence of the council registers with the UPRN the address matcher gave
-- it (null when the address allows none) and a position: the matched address's, else the
-- postcode's point. `status` on the register's as-of date (its latest licence start not after the build date;
-- the build date $today for a register without one): expired when valid_to is before it,
-- pending when valid_from is after it (Sheffield's register lists 26 licences issued to start
-- after its own date: granted, not expired), else current; null when a date is missing (no
-- register sample has one).
-- Registers of temporary exemption notices (Oxford's) are left out: not licences.
-- A licence number repeated within one register keeps its latest-starting row (none do in the samples).
-- A case listed twice in one register: the latest licence start wins, then the last row (rowid
-- keeps file order), so ties never depend on how DuckDB's threads ordered them.
CREATE OR REPLACE TABLE hmo_licences AS
WITH reg AS (
  SELECT h.* FROM stg_hmo_register h
  WHERE h._file_no NOT IN (SELECT file_no FROM hmo_registers WHERE exemptions)
  QUALIFY row_number() OVER (PARTITION BY h._file_no, h.case_number ORDER BY h.licence_start DESC NULLS LAST, h.rowid DESC) = 1
)
SELECT
  h.case_number AS licence_reference,
  r.register,
  h.address,
  h.postcode,
  CASE WHEN h.postcode IS NOT NULL THEN split_part(h.postcode, ' ', 1) END AS outcode,
  m.uprn,
  m.method AS match_method,
  m.reason AS unmatched_reason,
  h.occupants AS max_occupants,
  h.units AS households,
  h.storeys,
  h.licence_start::DATE AS valid_from,
  h.licence_end::DATE AS valid_to,
  CASE WHEN h.licence_start IS NULL OR h.licence_end IS NULL THEN NULL
       WHEN h.licence_end::DATE < coalesce(r.as_of::DATE, $today::DATE) THEN 'expired'
       WHEN h.licence_start::DATE > coalesce(r.as_of::DATE, $today::DATE) THEN 'pending'
       ELSE 'current' END AS status,
  coalesce(a.lat, p.lat) AS lat,
  coalesce(a.lng, p.lng) AS lng,
  CASE WHEN a.lat IS NOT NULL THEN 'uprn' WHEN p.lat IS NOT NULL THEN 'postcode' END AS position_source,
  coalesce(a.la_code, p.la_code) AS la_code,
  r.as_of AS register_as_of
FROM reg h
JOIN hmo_registers r ON r.file_no = h._file_no
LEFT JOIN hmo_matches m ON m.id = h._file_no || ':' || h.case_number
LEFT JOIN addresses a ON a.uprn = m.uprn
LEFT JOIN postcodes p ON p.postcode = h.postcode
ORDER BY r.register, h.case_number;
