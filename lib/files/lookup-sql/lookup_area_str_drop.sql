-- lookup_area_str_drop: the short-term let areas once their rows are read (lookup_area_str).
DROP TABLE lk_str
