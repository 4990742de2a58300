-- str_listing_base: one row per listing with its attributes (types, area, amenities, ratings,
-- calendar, activity), before tiers and performance. Definitions (docs/str.md):
--   listed  = a price in this scrape (Inside Airbnb carries listings over from a previous
--             scrape without price or calendar);
--   active  = listed, and reviewed within active_review_days days or bookable in the coming year;
--   blocked = listed, with no bookable night in the coming year;
--   live months run from the first review's month (the scrape month for a listed listing
--   never reviewed) to the scrape month when listed, else to the last review's month.
CREATE OR REPLACE TABLE str_listing_base AS
WITH rev AS (
  SELECT listing_id AS id, min(CAST(date AS DATE)) AS first_date, max(CAST(date AS DATE)) AS last_date
  FROM stg_airbnb_reviews GROUP BY listing_id
),
la AS (
  SELECT id, unnest(amenities) AS a FROM str_listing_src
),
-- Each distinct amenity string is matched once (a few thousand nationally), then joined back.
ak AS (
  SELECT d.a, r.key FROM (SELECT DISTINCT a FROM la) d JOIN str_amenity_rules r ON regexp_matches(lower(d.a), r.pattern)
),
am AS (
  SELECT la.id, list(DISTINCT ak.key ORDER BY ak.key) AS keys FROM la JOIN ak USING (a) GROUP BY la.id
),
j AS (
  SELECT
    s.*,
    a.postcode, a.la_code, a.country, a.distance_m, a.postcode_source,
    c.calendar_days, c.open_30 AS cal_open_30, c.open_365 AS cal_open_365, c.far_days, c.far_closed,
    coalesce(am.keys, []::VARCHAR[]) AS amenity_keys,
    least(CAST(s.first_review AS DATE), rev.first_date) AS first_seen,
    greatest(CAST(s.last_review AS DATE), rev.last_date) AS last_seen
  FROM str_listing_src s
  LEFT JOIN str_listing_area a USING (id)
  LEFT JOIN str_calendar_stats c USING (id)
  LEFT JOIN am USING (id)
  LEFT JOIN rev USING (id)
),
k AS (
  SELECT *,
    price_gbp IS NOT NULL AS listed,
    coalesce(cal_open_30, availability_30) AS open_30,
    coalesce(cal_open_365, availability_365) AS open_365,
    -- Without a calendar the listings file's availability_90/365 give the same far-calendar
    -- figure: nights open on days 90-364 are availability_365 - availability_90, of 275.
    CASE WHEN price_gbp IS NOT NULL AND far_days > 0 AND cal_open_365 > 0
         THEN least(far_closed / far_days, $max_blocked_share)
         WHEN price_gbp IS NOT NULL AND calendar_days IS NULL AND availability_365 > 0 AND availability_90 IS NOT NULL
         THEN least(greatest(1 - (availability_365 - availability_90) / (365.0 - $blocked_from_day), 0), $max_blocked_share) END AS own_blocked_share,
    CASE WHEN calendar_days > 0 THEN 'calendar' WHEN availability_30 IS NOT NULL THEN 'listing_availability' END AS demand_source
  FROM j
)
SELECT
  id,
  scrape_date,
  CAST(date_trunc('month', scrape_date) AS DATE) AS scrape_month,
  latitude AS lat,
  longitude AS lng,
  postcode,
  CASE WHEN postcode IS NOT NULL THEN left(postcode, length(postcode) - 2) END AS sector,
  CASE WHEN postcode IS NOT NULL THEN split_part(postcode, ' ', 1) END AS outcode,
  la_code,
  country,
  distance_m AS postcode_distance_m,
  postcode_source,
  neighbourhood_cleansed AS neighbourhood,
  room_type,
  CASE room_type WHEN 'Entire home/apt' THEN 'entire_home' WHEN 'Private room' THEN 'private_room'
                 WHEN 'Shared room' THEN 'shared_room' WHEN 'Hotel room' THEN 'hotel_room' END AS listing_type,
  property_type AS airbnb_property_type,
  CASE
    WHEN property_type IS NULL OR regexp_matches(lower(property_type), $re_neither) THEN NULL
    WHEN regexp_matches(lower(property_type), $re_apartment) THEN 'apartment'
    WHEN regexp_matches(lower(property_type), $re_house) THEN 'house'
  END AS property_type,
  bedrooms,
  CASE WHEN room_type <> 'Entire home/apt' THEN 'room'
       WHEN coalesce(bedrooms, 1) >= 4 THEN 'entire_4plus'
       ELSE 'entire_' || greatest(coalesce(bedrooms, 1), 1) END AS tier_band,
  bathrooms,
  beds,
  accommodates,
  price_gbp,
  minimum_nights,
  host_id,
  host_listings_count,
  calculated_host_listings_count AS host_listings_in_scrape,
  host_is_superhost,
  instant_bookable,
  review_scores_rating AS rating_overall,
  review_scores_accuracy AS rating_accuracy,
  review_scores_cleanliness AS rating_cleanliness,
  review_scores_checkin AS rating_check_in,
  review_scores_communication AS rating_communication,
  review_scores_location AS rating_location,
  review_scores_value AS rating_value,
  coalesce(number_of_reviews, 0) AS number_of_reviews,
  coalesce(number_of_reviews_ltm, 0) AS reviews_ltm,
  coalesce(number_of_reviews_l30d, 0) AS reviews_l30d,
  reviews_per_month,
  first_seen AS first_review,
  last_seen AS last_review,
  amenity_keys,
  calendar_days,
  demand_source,
  CAST(open_30 AS INTEGER) AS open_30,
  CAST(open_365 AS INTEGER) AS open_365,
  coalesce(own_blocked_share, median(own_blocked_share) OVER (), 0) AS blocked_share,
  own_blocked_share IS NOT NULL AS blocked_share_observed,
  listed,
  listed AND (coalesce(open_365, 0) > 0 OR last_seen >= scrape_date - CAST($active_review_days AS INTEGER)) AS active,
  listed AND coalesce(open_365, 0) = 0 AS blocked,
  CAST(least(greatest(coalesce(minimum_nights, 1), $default_stay), $max_stay) AS DOUBLE) AS stay_nights,
  CAST(date_trunc('month', coalesce(first_seen, CASE WHEN listed THEN scrape_date END)) AS DATE) AS live_from,
  CAST(CASE WHEN listed THEN date_trunc('month', scrape_date) ELSE date_trunc('month', last_seen) END AS DATE) AS live_to,
  estimated_occupancy_l365d AS airbnb_estimated_nights_l365d,
  estimated_revenue_l365d AS airbnb_estimated_revenue_l365d
FROM k
