-- epc_linked: every certificate (re-published ones once) with the UPRN it belongs to: its
-- own UPRN when the address base has it, else the address match. A certificate in several
-- files: the latest file's row wins, and within a file the last row (staging keeps file order
-- in rowid), so the choice never depends on how DuckDB ordered rows that tie.
CREATE OR REPLACE TABLE epc_linked AS
SELECT
  e.* EXCLUDE (uprn, _file_no, lodgement_date, inspection_date),
  e.lodgement_date::DATE AS lodgement_date,
  e.inspection_date::DATE AS inspection_date,
  CASE WHEN a.uprn IS NOT NULL THEN e.uprn ELSE m.uprn END AS uprn,
  CASE WHEN a.uprn IS NOT NULL THEN 'certificate' WHEN m.uprn IS NOT NULL THEN 'address_match' END AS uprn_source
FROM stg_epc e
LEFT JOIN addresses a ON a.uprn = e.uprn
LEFT JOIN epc_matches m ON m.id = e.certificate_id
QUALIFY row_number() OVER (PARTITION BY e.certificate_id ORDER BY e._file_no DESC, e.lodgement_date DESC, e.rowid DESC) = 1
