-- The streamed matcher's work table, dropped once its results are written.
DROP TABLE IF EXISTS match_in
