-- Position of a UPRN ($1, BIGINT): the site of a development GDV.
SELECT lat, lng FROM properties WHERE uprn = $1
