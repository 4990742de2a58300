-- str_market_listings: every placed short-term-let listing with what the market analysis
-- needs (docs/str.md, "The market analysis") and its 24 months as lists ordered by month,
-- loaded once per build into service/str/market-set.ts.
SELECT
  l.id, l.lat, l.lng, l.postcode, l.sector, l.outcode, l.country,
  l.listing_type, l.property_type, l.bedrooms, l.price_tier,
  l.rating_overall, l.rating_cleanliness, l.rating_accuracy, l.rating_communication,
  l.rating_location, l.rating_check_in, l.rating_value,
  l.active, l.blocked, coalesce(l.first_review > l.scrape_date - 30, false) AS new_30d,
  l.booked_ahead_30d, l.available_next_30d, l.stay_nights,
  COLUMNS('^has_'),
  m.last_month, m.live, m.available, m.booked, m.revenue
FROM str_listings l
JOIN (
  SELECT id, max(month) AS last_month,
    list(live ORDER BY month) AS live, list(available_nights ORDER BY month) AS available,
    list(booked_nights ORDER BY month) AS booked, list(revenue ORDER BY month) AS revenue
  FROM str_listing_months GROUP BY id
) m USING (id)
WHERE l.lat IS NOT NULL AND l.lng IS NOT NULL
ORDER BY l.id
