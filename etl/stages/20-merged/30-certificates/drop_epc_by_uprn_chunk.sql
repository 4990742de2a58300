DROP MACRO TABLE IF EXISTS epc_by_uprn_chunk
