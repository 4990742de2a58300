-- sale_evidence_path_rows: the paths by id (few: one per sector and its parents).
SELECT path_id, sector, outcode, la_code, country FROM sale_evidence_paths ORDER BY path_id
