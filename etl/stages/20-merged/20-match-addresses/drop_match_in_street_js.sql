-- The JS-derived street keys, once joined into match_in.
DROP TABLE IF EXISTS match_in_street_js
