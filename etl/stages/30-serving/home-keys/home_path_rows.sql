-- home_path_rows: the paths by id (few: one per sector and its parents).
SELECT path_id, sector, outcode, la_code, country FROM home_paths ORDER BY path_id
