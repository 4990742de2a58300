-- epc_linked in chunks: the first chunk's certificates, those whose hash(certificate_id) %
-- chunks = chunk (certificates_cut), linked to their UPRNs (epc_link.sql); the others follow by
-- epc_linked_append.sql. All of a certificate's rows are in one chunk, and so is its match.
-- The chunk is materialised because epc_link reads it twice: read twice from stg_epc instead,
-- 1M addresses failed under 100 MB in 8 chunks; materialised, they pass in 4 (docs/etl.md,
-- "Memory"). In one chunk the copy would only cost time (2 s at 1M), so epc_linked.sql reads
-- the staged rows as they are.
CREATE OR REPLACE TABLE epc_linked AS
WITH e AS MATERIALIZED (
  SELECT *, rowid AS _row FROM stg_epc
  WHERE hash(certificate_id) % getvariable('certificates_cut').chunks = getvariable('certificates_cut').chunk
)
FROM epc_link('e')
