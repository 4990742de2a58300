-- epc_by_uprn: the first chunk of the latest certificate values per UPRN (epc_by_uprn_chunk.sql);
-- the others follow by epc_by_uprn_append.sql.
CREATE OR REPLACE TABLE epc_by_uprn AS FROM epc_by_uprn_chunk()
