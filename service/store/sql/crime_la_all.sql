-- Each local authority's crimes, addresses and months (crime_la), for GET /crime.
SELECT la_code, crimes, addresses, months FROM crime_la
