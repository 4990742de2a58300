-- lookup_area_counts_drop: the area counts once their rows are read (lookup_area_counts).
DROP TABLE lk_area_counts
