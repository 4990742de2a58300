-- The local authority each outcode mostly lies in (postcodes): an outcode's wider area where the
-- price index files none under it (Scotland is not in Price Paid), as hmo_sector_districts does for sectors.
SELECT outcode, mode(la_code) AS la_code FROM postcodes WHERE la_code IS NOT NULL AND outcode IS NOT NULL GROUP BY outcode
