-- lookup_index_drop: the index series once its rows are read (lookup_index_series).
DROP TABLE lk_index
