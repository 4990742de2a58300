-- str_estimate_listings: the listings the STR estimate may use as comparables (docs/str.md,
-- "The estimate"), loaded once per build into service/str/listing-index.ts. Active whole
-- homes with a known bedroom count, at least 90 available nights in the last 12 months and
-- a price basis. base_adr is the listing's price brought to a month of price index 1 (the
-- year's day-weighted mean): ADR basis ÷ the LA's price index of the scrape month.
SELECT
  l.id, l.lat, l.lng, l.bedrooms, l.bathrooms, l.property_type, l.la_code, l.sector,
  l.adr_basis_gbp / coalesce(s.adr_index, sw.adr_index, 1) AS base_adr,
  l.occupancy_ltm AS occupancy, coalesce(l.blocked_share, 0) AS blocked_share,
  l.revenue_ltm, l.adr_ltm
FROM str_listings l
LEFT JOIN str_seasonality s ON s.la_code = l.la_code AND s.month_of_year = month(l.scrape_date)
LEFT JOIN str_seasonality sw ON sw.la_code = '*' AND sw.month_of_year = month(l.scrape_date)
WHERE l.active AND l.listing_type = 'entire_home'
  AND l.bedrooms IS NOT NULL AND l.lat IS NOT NULL AND l.lng IS NOT NULL
  AND l.occupancy_ltm IS NOT NULL AND l.available_nights_ltm >= 90
  AND l.adr_basis_gbp > 0
ORDER BY l.id
