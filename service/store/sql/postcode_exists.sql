-- Whether a postcode ($1, canonical form) is in the build's postcode directory.
SELECT postcode, terminated FROM postcodes WHERE postcode = $1::VARCHAR
