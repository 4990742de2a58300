SELECT * EXCLUDE (key) FROM lk_area_counts WHERE key = $1
