-- comparables_paths: the distinct area paths (sector, outcode, district, country) of the homes
-- comparables_rows reads, in a fixed order: a row of the comparables file names its path by
-- its place in this list (the service brings each price to today by the path's area index).
SELECT DISTINCT p.sector, p.outcode, p.la_code, p.country
FROM sales s JOIN properties p USING (uprn)
WHERE s.category = 'A' AND p.lat IS NOT NULL AND p.lng IS NOT NULL
ORDER BY ALL NULLS LAST
