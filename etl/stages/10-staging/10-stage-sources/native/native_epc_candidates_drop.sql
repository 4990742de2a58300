DROP VIEW IF EXISTS native_epc_candidates
