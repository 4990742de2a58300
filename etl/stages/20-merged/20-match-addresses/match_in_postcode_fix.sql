-- The non-ASCII postcodes of match_in replaced by their canonical form as the JS gives it
-- (match_in_postcode_js: raw, postcode), and their outward code set. In place: the records
-- keep their order.
UPDATE match_in SET postcode = f.postcode, outcode = split_part(f.postcode, ' ', 1)
FROM match_in_postcode_js f WHERE match_in.postcode = f.raw
