-- str_market_meta: what the market set's rows file keeps in its meta: the listings without a
-- postcode point within 1 km (so in no sector or outcode), for GET /str/market's not-found
-- message, and the countries of the listings, for the source's coverage.
SELECT count(*) FILTER (WHERE postcode IS NULL) AS unplaced,
  coalesce(list(DISTINCT country ORDER BY country) FILTER (WHERE country IS NOT NULL), []) AS countries
FROM str_listings WHERE lat IS NOT NULL AND lng IS NOT NULL
