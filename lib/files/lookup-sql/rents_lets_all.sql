-- Every whole-property let of the build (rent_lets) with the let home's UPRN and floor area (the
-- valuation scales each let to the valued home's size): loaded whole by the service for a build
-- without the rent lets files, and read by the ETL for the build-wide as-of and rent growth it
-- keeps in rent-lets.rows's meta (lib/valuation/rent-growth.ts). One text for both, in one
-- order (rent_lets' own), so the growth, a sum over the rows, is the same double either way.
SELECT l.lat, l.lng, l.sector, l.outcode, l.property_type, l.bedrooms, l.rent_pcm, l.let_date::VARCHAR AS let_date,
       l.uprn::DOUBLE AS uprn, p.floor_area_sqft
FROM rent_lets l LEFT JOIN properties p ON p.uprn = l.uprn
WHERE l.let_type = 'whole' AND l.lat IS NOT NULL
ORDER BY l.outcode, l.sector, l.postcode, l.let_date, l.evidence_id
