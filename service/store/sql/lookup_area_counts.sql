-- lookup_area_counts: every area's counts (lookup_area_counts_table), loaded whole into the heap.
SELECT * FROM lk_area_counts ORDER BY key
