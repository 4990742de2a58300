-- str_listing_months_all: computed_months months per listing, ending at its scrape month
-- (str_listing_months publishes the last history_months; the year before them gives the area
-- tables their year-on-year change). Booked nights follow Inside Airbnb's review-rate model,
-- per 12-month block (the last 12 months, the 12 before, …): stays = reviews ÷ review_rate, nights = stays × assumed stay
-- (minimum nights, at least default_stay, at most max_stay), capped at max_occupancy of the
-- block's available nights; the block's nights are spread over its live months by available
-- nights × the area's demand index. Reviews come from the reviews file when it is current
-- (its latest review within reviews_current_days days of the scrape), else from the
-- listing's own counts (reviews_ltm for the last 12 months; older reviews spread evenly over
-- the live months before them). Available nights = live month's days × (1 − blocked share).
-- ADR = the listed price (else the median of comparable listings nearby) × the area's price
-- index of the month ÷ that of the scrape month. Months outside the live span hold zeros
-- (available, booked, revenue) with null occupancy and ADR.
-- Float sums are taken exactly over DECIMAL(38, 9) (the values to a billionth): a DOUBLE sum
-- depends on the order DuckDB's threads add rows in, and two builds must publish the same.
-- (TRY_CAST: a non-finite value is left out of the sum rather than failing the build.)
CREATE OR REPLACE TABLE str_listing_months_all AS
WITH rc AS (
  SELECT coalesce(max(CAST(date AS DATE)) >= (SELECT max(scrape_date) FROM str_listing_base) - CAST($reviews_current_days AS INTEGER), false) AS current
  FROM stg_airbnb_reviews
),
rm AS (
  -- Overlapping review files repeat reviews: per listing and month, the largest file's count.
  SELECT id, month, max(n) AS reviews FROM (
    SELECT listing_id AS id, CAST(date_trunc('month', CAST(date AS DATE)) AS DATE) AS month, _file_no, count(*) AS n
    FROM stg_airbnb_reviews GROUP BY ALL
  ) GROUP BY id, month
),
grid AS (
  SELECT b.id, b.scrape_month, b.live_from, b.live_to, pg.price_outlier, b.blocked_share, b.stay_nights, b.number_of_reviews, b.reviews_ltm,
         coalesce(b.la_code, '*') AS season_la,
         CAST(b.scrape_month - to_months(CAST(t.k AS INTEGER)) AS DATE) AS month,
         t.k // 12 AS year_block
  FROM str_listing_base b JOIN str_price_guard pg USING (id) CROSS JOIN range(0, $computed_months) t(k)
),
m AS (
  SELECT g.*,
    day(last_day(g.month)) AS days_in_month,
    -- A listing whose price is a placeholder or outlier (str_price_guard) is never live: it
    -- counts in no ADR, occupancy or revenue.
    g.month BETWEEN g.live_from AND g.live_to AND NOT g.price_outlier AS live,
    coalesce(rm.reviews, 0) AS reviews,
    s.demand_index, s.adr_index, ss.adr_index AS scrape_adr_index
  FROM grid g
  LEFT JOIN rm ON rm.id = g.id AND rm.month = g.month
  LEFT JOIN str_seasonality s ON s.la_code = g.season_la AND s.month_of_year = month(g.month)
  LEFT JOIN str_seasonality ss ON ss.la_code = g.season_la AND ss.month_of_year = month(g.scrape_month)
),
n AS (
  SELECT *,
    CASE WHEN live THEN days_in_month * (1 - blocked_share) ELSE 0 END AS available_nights,
    CASE WHEN live THEN days_in_month * blocked_share ELSE 0 END AS blocked_nights
  FROM m
),
blk AS (
  SELECT *,
    CAST(sum(TRY_CAST(available_nights AS DECIMAL(38, 9))) OVER w AS DOUBLE) AS block_available,
    CAST(sum(TRY_CAST(available_nights * demand_index AS DECIMAL(38, 9))) OVER w AS DOUBLE) AS block_weight,
    sum(reviews) OVER w AS block_reviews_file,
    count(*) FILTER (WHERE live) OVER w AS block_live_months,
    -- Live months before the last-12-months window, over which older reviews are spread.
    greatest(date_diff('month', live_from, CAST(scrape_month - to_months(11) AS DATE)), 0) AS months_before_ltm
  FROM n
  WINDOW w AS (PARTITION BY id, year_block)
),
r AS (
  SELECT blk.*,
    CASE
      WHEN (SELECT current FROM rc) THEN block_reviews_file
      WHEN year_block = 0 THEN reviews_ltm
      WHEN months_before_ltm > 0 THEN greatest(number_of_reviews - reviews_ltm, 0) * least(block_live_months / months_before_ltm, 1)
      ELSE 0
    END AS block_reviews
  FROM blk
),
b AS (
  SELECT r.*,
    least(block_reviews / $review_rate * stay_nights, $max_occupancy * block_available) AS block_booked
  FROM r
),
o AS (
  SELECT
    b.id,
    b.month,
    b.live,
    b.days_in_month,
    b.available_nights,
    b.blocked_nights,
    CASE WHEN b.live AND b.block_weight > 0
         THEN least(b.block_booked * b.available_nights * b.demand_index / b.block_weight, b.available_nights)
         ELSE 0 END AS booked_nights,
    b.reviews,
    CASE WHEN b.live THEN p.base_price * b.adr_index / b.scrape_adr_index END AS adr
  FROM b JOIN str_listing_price p USING (id)
)
SELECT
  id, month, live, days_in_month, available_nights, blocked_nights, booked_nights,
  CASE WHEN available_nights > 0 THEN booked_nights / available_nights END AS occupancy,
  round(adr, 2) AS adr,
  coalesce(booked_nights * round(adr, 2), 0) AS revenue,
  reviews
FROM o
