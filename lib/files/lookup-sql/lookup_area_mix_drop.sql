-- lookup_area_mix_drop: the area mixes once their rows are read (lookup_area_mix).
DROP TABLE lk_area_mix
