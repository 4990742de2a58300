-- The repeat-sale pair cells, in a fixed order so the solve is deterministic.
SELECT * FROM mart_repeat_pairs ORDER BY ALL
