-- The postcodes match_in_records left as written: the non-ASCII ones (a canonical postcode
-- is ASCII), for the JS normalisePostcode.
SELECT DISTINCT postcode FROM match_in WHERE strlen(postcode) <> length(postcode)
