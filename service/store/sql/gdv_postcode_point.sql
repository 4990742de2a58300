-- Position of a postcode ($1, canonical form): the site of a development GDV.
SELECT lat, lng FROM postcodes WHERE postcode = $1::VARCHAR AND lat IS NOT NULL
