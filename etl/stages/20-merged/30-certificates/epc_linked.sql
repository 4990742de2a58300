-- epc_linked: every certificate linked to its UPRN (epc_link.sql), in one statement, the
-- staged rows read as they are (a build in one chunk, certificates_cut {1, 0}).
CREATE OR REPLACE TABLE epc_linked AS
WITH e AS NOT MATERIALIZED (SELECT *, rowid AS _row FROM stg_epc)
FROM epc_link('e')
