-- lookup_area_mix: every area's mixes (lookup_area_mix_table), loaded whole into the heap.
SELECT key, dim, value, n FROM lk_area_mix ORDER BY key, dim, n DESC, value
