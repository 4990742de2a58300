-- Adds one more chunk of the latest certificate values per UPRN to epc_by_uprn (epc_by_uprn_chunk.sql).
INSERT INTO epc_by_uprn FROM epc_by_uprn_chunk()
