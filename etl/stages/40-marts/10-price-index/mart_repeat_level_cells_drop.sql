DROP TABLE IF EXISTS mart_repeat_level_cells
