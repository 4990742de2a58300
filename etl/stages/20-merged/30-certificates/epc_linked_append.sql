-- Adds one more chunk of certificates linked to their UPRNs to epc_linked (epc_linked_chunk.sql).
INSERT INTO epc_linked
WITH e AS MATERIALIZED (
  SELECT *, rowid AS _row FROM stg_epc
  WHERE hash(certificate_id) % getvariable('certificates_cut').chunks = getvariable('certificates_cut').chunk
)
FROM epc_link('e')
