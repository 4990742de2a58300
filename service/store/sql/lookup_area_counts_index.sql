CREATE INDEX lk_area_counts_key ON lk_area_counts (key)
