-- str_accuracy_synth: per-listing error of the estimates against the synthetic region's truth
-- (truth_listing_months, loaded by bench/etl-str.ts), over the 12 months ending at the scrape
-- month, for listings that are active and truly booked in that year. Revenue and booked nights
-- are compared with Inside Airbnb's own estimate too, and with two oracles: true booked
-- nights × our ADR (the ADR error alone) and our booked nights × true ADR (the nights error alone).
WITH t AS (
  SELECT CAST(listing_id AS VARCHAR) AS id, CAST(month || '-01' AS DATE) AS month, true_adr, booked_nights, available_nights
  FROM truth_listing_months
),
tl AS (
  SELECT l.id,
    sum(t.booked_nights) AS true_booked,
    sum(t.available_nights) AS true_available,
    sum(t.booked_nights * t.true_adr) AS true_revenue,
    sum(t.booked_nights * t.true_adr) / nullif(sum(t.booked_nights), 0) AS true_adr
  FROM str_listings l JOIN t ON t.id = l.id
  WHERE t.month > CAST(date_trunc('month', l.scrape_date) - to_months(12) AS DATE) AND t.month <= l.scrape_date
  GROUP BY l.id
),
j AS (
  SELECT l.*, tl.true_booked, tl.true_available, tl.true_revenue, tl.true_adr,
    tl.true_booked / nullif(tl.true_available, 0) AS true_occupancy
  FROM str_listings l JOIN tl USING (id)
  WHERE l.active AND tl.true_booked > 0
)
SELECT
  count(*) AS listings,
  median(abs(revenue_ltm / true_revenue - 1)) AS mdape_revenue,
  median(revenue_ltm / true_revenue - 1) AS median_error_revenue,
  median(abs(occupancy_ltm / true_occupancy - 1)) AS mdape_occupancy,
  median(occupancy_ltm / true_occupancy - 1) AS median_error_occupancy,
  median(abs(booked_nights_ltm / true_booked - 1)) AS mdape_booked_nights,
  median(abs(adr_ltm / true_adr - 1)) AS mdape_adr,
  median(abs(true_booked * adr_ltm / true_revenue - 1)) AS oracle_true_nights_mdape_revenue,
  median(abs(booked_nights_ltm * true_adr / true_revenue - 1)) AS oracle_true_adr_mdape_revenue,
  median(abs(airbnb_estimated_revenue_l365d / true_revenue - 1)) FILTER (WHERE airbnb_estimated_revenue_l365d IS NOT NULL) AS airbnb_mdape_revenue,
  median(abs(airbnb_estimated_nights_l365d / true_booked - 1)) AS airbnb_mdape_booked_nights,
  median(abs((airbnb_estimated_nights_l365d / 365.0) / true_occupancy - 1)) AS airbnb_mdape_occupancy_of_365,
  corr(revenue_ltm, true_revenue) AS corr_revenue,
  corr(occupancy_ltm, true_occupancy) AS corr_occupancy,
  median(true_occupancy) AS median_true_occupancy,
  median(occupancy_ltm) AS median_occupancy
FROM j
