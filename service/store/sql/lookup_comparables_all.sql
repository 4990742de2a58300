-- lookup_comparables_all: every standard (category A) matched sale of a located home, with the
-- home's position, type, bedrooms, floor area and area path, for the comparables index
-- (service/lookups/comparables.ts). Oldest first per home.
SELECT s.uprn, s.price, (s.date - DATE '1970-01-01')::INTEGER AS day,
       (year(s.date) * 12 + month(s.date) - 1)::INTEGER AS month_no,
       p.lat, p.lng, p.property_type, p.bedrooms, p.floor_area_sqft, p.sector, p.outcode, p.la_code, p.country
FROM sales s JOIN properties p USING (uprn)
WHERE s.category = 'A' AND p.lat IS NOT NULL AND p.lng IS NOT NULL
ORDER BY s.uprn, s.date, s.transaction_id
