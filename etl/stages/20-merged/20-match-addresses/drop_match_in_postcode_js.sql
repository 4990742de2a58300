-- The JS-normalised non-ASCII postcodes, once joined into match_in.
DROP TABLE IF EXISTS match_in_postcode_js
