-- str_listing_rows: what GET /str/listings shows of each listing, in the same rows and order as
-- str_market_listings (same WHERE, same ORDER BY), so row i here is row i of the market set.
SELECT
  l.id, CAST(l.lat AS DOUBLE) AS lat, l.listing_type, l.property_type, CAST(l.bedrooms AS INTEGER) AS bedrooms,
  CAST(l.bathrooms AS DOUBLE) AS bathrooms, CAST(l.accommodates AS INTEGER) AS accommodates,
  CAST(l.adr_ltm AS DOUBLE) AS adr_ltm, CAST(l.occupancy_ltm AS DOUBLE) AS occupancy_ltm, CAST(l.revenue_ltm AS DOUBLE) AS revenue_ltm,
  CAST(l.rating_overall AS DOUBLE) AS rating_overall, CAST(l.number_of_reviews AS INTEGER) AS number_of_reviews,
  CAST(l.host_listings_count AS INTEGER) AS host_listings_count, l.scrape_date::VARCHAR AS scrape_date
FROM str_listings l
WHERE l.lat IS NOT NULL AND l.lng IS NOT NULL
ORDER BY l.id
