-- comparables_rows: every standard (category A) matched sale of a located home, as the service's
-- lookup_comparables_all reads them, sorted by the home's grid cell (lib/geo/grid-cells.ts:
-- localMetres about 54°N, cells of $cell_m metres; the same double operations in the same order
-- as cellKeyOfMetres, which the writer checks), then each home's sales together, newest first
-- (lookup_comparables_all's order reversed: a query wants a home's latest sale up to a date, the
-- first of its rows it meets dated no later).
SELECT (floor(p.lat * 110540::DOUBLE / $cell_m::DOUBLE) + $cell_offset::DOUBLE) * $cell_span::DOUBLE
         + (floor(p.lng * 111320::DOUBLE * $cos54::DOUBLE / $cell_m::DOUBLE) + $cell_offset::DOUBLE) AS cell,
       s.uprn::DOUBLE AS uprn, s.price::DOUBLE AS price, (s.date - DATE '1970-01-01')::DOUBLE AS day,
       (year(s.date) * 12 + month(s.date) - 1)::DOUBLE AS month_no,
       p.lat::DOUBLE AS lat, p.lng::DOUBLE AS lng, p.property_type::VARCHAR AS property_type,
       p.bedrooms::DOUBLE AS bedrooms, p.floor_area_sqft::DOUBLE AS floor_area_sqft,
       p.sector, p.outcode, p.la_code, p.country
FROM sales s JOIN properties p USING (uprn)
WHERE s.category = 'A' AND p.lat IS NOT NULL AND p.lng IS NOT NULL
ORDER BY cell, s.uprn, s.date DESC, s.transaction_id DESC
