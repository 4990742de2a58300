-- str_listings: one row per listing of the latest scrape, with its price tier (str_price_tiers:
-- the most specific group that has bounds) and its estimated performance over the last 12
-- months (the sum of its last 12 rows of str_listing_months).
-- Float sums are taken exactly over DECIMAL(38, 9) (the values to a billionth): a DOUBLE sum
-- depends on the order DuckDB's threads add rows in, and two builds must publish the same.
-- (TRY_CAST: a non-finite value is left out of the sum rather than failing the build.)
CREATE OR REPLACE TABLE str_listings AS
WITH tier_group AS (
  SELECT b.id, coalesce(t1.level, t2.level, 'all') AS level
  FROM str_listing_base b
  LEFT JOIN (SELECT DISTINCT level, la_code, tier_band FROM str_price_tiers WHERE level = 'la_band') t1
    ON t1.la_code = b.la_code AND t1.tier_band = b.tier_band
  LEFT JOIN (SELECT DISTINCT level, tier_band FROM str_price_tiers WHERE level = 'band') t2
    ON t2.tier_band = b.tier_band
),
tier AS (
  SELECT b.id, t.tier, g.level AS tier_level
  FROM str_listing_base b
  JOIN tier_group g USING (id)
  JOIN str_price_tiers t ON t.level = g.level
    AND (g.level = 'all' OR t.tier_band = b.tier_band)
    AND (g.level <> 'la_band' OR t.la_code = b.la_code)
  JOIN str_price_guard pg USING (id)
  WHERE b.price_gbp IS NOT NULL AND NOT pg.price_outlier
    AND (t.min_price_gbp IS NULL OR b.price_gbp >= t.min_price_gbp)
    AND (t.max_price_gbp IS NULL OR b.price_gbp < t.max_price_gbp)
),
ltm AS (
  SELECT m.id,
    CAST(sum(TRY_CAST(m.available_nights AS DECIMAL(38, 9))) AS DOUBLE) AS available_nights_ltm,
    CAST(sum(TRY_CAST(m.booked_nights AS DECIMAL(38, 9))) AS DOUBLE) AS booked_nights_ltm,
    CAST(sum(TRY_CAST(m.blocked_nights AS DECIMAL(38, 9))) AS DOUBLE) AS blocked_nights_ltm,
    CAST(sum(TRY_CAST(m.revenue AS DECIMAL(38, 9))) AS DOUBLE) AS revenue_ltm
  FROM str_listing_months m JOIN str_listing_base b USING (id)
  WHERE m.month > CAST(b.scrape_month - to_months(12) AS DATE)
  GROUP BY m.id
),
rc AS (
  SELECT coalesce(max(CAST(date AS DATE)) >= (SELECT max(scrape_date) FROM str_listing_base) - CAST($reviews_current_days AS INTEGER), false) AS current
  FROM stg_airbnb_reviews
)
SELECT
  b.id, b.scrape_date, b.lat, b.lng,
  b.postcode, b.sector, b.outcode, b.la_code, b.country, b.postcode_distance_m, b.postcode_source, b.neighbourhood,
  b.room_type, b.listing_type, b.airbnb_property_type, b.property_type,
  b.bedrooms, b.bathrooms, b.beds, b.accommodates, b.minimum_nights,
  b.price_gbp, g.price_outlier, g.guard_median_gbp, p.base_price AS adr_basis_gbp, p.price_basis, b.tier_band, tier.tier AS price_tier, tier.tier_level,
  b.rating_overall, b.rating_accuracy, b.rating_cleanliness, b.rating_check_in, b.rating_communication, b.rating_location, b.rating_value,
  b.number_of_reviews, b.reviews_ltm, b.reviews_l30d, b.reviews_per_month, b.first_review, b.last_review,
  b.amenity_keys,
  list_contains(b.amenity_keys, 'wifi') AS has_wifi,
  list_contains(b.amenity_keys, 'kitchen') AS has_kitchen,
  list_contains(b.amenity_keys, 'washing_machine') AS has_washing_machine,
  list_contains(b.amenity_keys, 'dryer') AS has_dryer,
  list_contains(b.amenity_keys, 'parking') AS has_parking,
  list_contains(b.amenity_keys, 'free_parking') AS has_free_parking,
  list_contains(b.amenity_keys, 'air_conditioning') AS has_air_conditioning,
  list_contains(b.amenity_keys, 'heating') AS has_heating,
  list_contains(b.amenity_keys, 'tv') AS has_tv,
  list_contains(b.amenity_keys, 'workspace') AS has_workspace,
  list_contains(b.amenity_keys, 'dishwasher') AS has_dishwasher,
  list_contains(b.amenity_keys, 'self_check_in') AS has_self_check_in,
  list_contains(b.amenity_keys, 'pets_allowed') AS has_pets_allowed,
  list_contains(b.amenity_keys, 'outdoor_space') AS has_outdoor_space,
  list_contains(b.amenity_keys, 'hot_tub') AS has_hot_tub,
  list_contains(b.amenity_keys, 'pool') AS has_pool,
  list_contains(b.amenity_keys, 'ev_charger') AS has_ev_charger,
  list_contains(b.amenity_keys, 'fireplace') AS has_fireplace,
  list_contains(b.amenity_keys, 'gym') AS has_gym,
  list_contains(b.amenity_keys, 'long_term_stays') AS has_long_term_stays,
  list_contains(b.amenity_keys, 'smoke_alarm') AS has_smoke_alarm,
  b.host_id, b.host_listings_count, b.host_listings_in_scrape, b.host_is_superhost, b.instant_bookable,
  b.listed, b.active, b.blocked,
  b.open_30 AS available_next_30d,
  b.open_365 AS available_next_365d,
  -- From the calendar, else from the listings file's availability_30 (demand_source).
  CASE WHEN b.calendar_days > 0 AND b.listed
       THEN greatest(least(b.calendar_days, 30) - b.open_30 - round(b.blocked_share * least(b.calendar_days, 30)), 0)
       WHEN b.demand_source = 'listing_availability' AND b.listed
       THEN greatest(30 - b.open_30 - round(b.blocked_share * 30), 0) END AS booked_ahead_30d,
  b.demand_source,
  b.blocked_share,
  b.blocked_share_observed,
  b.stay_nights,
  CASE WHEN (SELECT current FROM rc) THEN 'reviews_file' ELSE 'listing_counts' END AS review_source,
  b.live_from,
  b.live_to,
  coalesce(l.available_nights_ltm, 0) AS available_nights_ltm,
  coalesce(l.booked_nights_ltm, 0) AS booked_nights_ltm,
  coalesce(l.blocked_nights_ltm, 0) AS blocked_nights_ltm,
  CASE WHEN l.available_nights_ltm > 0 THEN l.booked_nights_ltm / l.available_nights_ltm END AS occupancy_ltm,
  CASE WHEN l.booked_nights_ltm > 0 THEN l.revenue_ltm / l.booked_nights_ltm END AS adr_ltm,
  coalesce(l.revenue_ltm, 0) AS revenue_ltm,
  b.airbnb_estimated_nights_l365d,
  b.airbnb_estimated_revenue_l365d
FROM str_listing_base b
LEFT JOIN tier USING (id)
LEFT JOIN ltm l USING (id)
JOIN str_listing_price p USING (id)
JOIN str_price_guard g USING (id)
