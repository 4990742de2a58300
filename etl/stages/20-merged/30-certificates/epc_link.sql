-- epc_link(certificates): every certificate of the relation named (staged rows with their
-- staging rowid as _row; re-published ones once) with the UPRN it belongs to: its own UPRN
-- when the address base has it, else the address match. A certificate in several files: the
-- latest file's row wins, and within a file the last row (staging keeps file order in rowid),
-- so the choice never depends on how DuckDB ordered rows that tie. The address base is read
-- only for the relation's own UPRNs, so its hash table is never larger than the relation; the
-- matches are cut as the certificates are (the variable certificates_cut, set_certificates_cut.sql).
CREATE OR REPLACE TEMP MACRO epc_link(certificates) AS TABLE
SELECT
  e.* EXCLUDE (uprn, _file_no, _row, lodgement_date, inspection_date),
  e.lodgement_date::DATE AS lodgement_date,
  e.inspection_date::DATE AS inspection_date,
  CASE WHEN a.uprn IS NOT NULL THEN e.uprn ELSE m.uprn END AS uprn,
  CASE WHEN a.uprn IS NOT NULL THEN 'certificate' WHEN m.uprn IS NOT NULL THEN 'address_match' END AS uprn_source
FROM query_table(certificates) e
LEFT JOIN (SELECT uprn FROM addresses WHERE uprn IN (SELECT uprn FROM query_table(certificates))) a ON a.uprn = e.uprn
LEFT JOIN (
  SELECT id, uprn FROM epc_matches
  WHERE hash(id) % getvariable('certificates_cut').chunks = getvariable('certificates_cut').chunk
) m ON m.id = e.certificate_id
QUALIFY row_number() OVER (PARTITION BY e.certificate_id ORDER BY e._file_no DESC, e.lodgement_date DESC, e._row DESC) = 1
