-- One level's cells as mart_repeat_level_cells.sql sorted them (a plain scan keeps insertion order).
SELECT code, m1, m2, n, sum_y FROM mart_repeat_level_cells
