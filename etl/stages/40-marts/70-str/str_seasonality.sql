-- str_seasonality: month-of-year demand and price indices per local authority, estimated from
-- the review history (a review marks a stay). Window: the seasonality_months complete months
-- before the latest review month (that month is partial). Review counts per night of each
-- month give the demand index (day-weighted mean 1); an LA's shares are shrunk towards the
-- build-wide ones with seasonality_prior pseudo-reviews, so a thin LA borrows the wider
-- pattern; with no reviews at all the index is flat. The price index is the demand index to the
-- power adr_elasticity (an assumption: the sources publish no historical prices), rescaled to
-- a day-weighted mean of 1. la_code '*' is the build-wide row, used for listings with no LA.
-- A build with no reviews in the window (a scrape published without its reviews file) takes
-- the national prior season_prior (review counts by month of year, docs/str.md) instead of a
-- flat year; `source` says which: reviews, build_wide (an LA with none of its own borrows the
-- build-wide pattern) or national_prior.
-- Float sums are taken exactly over DECIMAL(38, 9) (the values to a billionth): a DOUBLE sum
-- depends on the order DuckDB's threads add rows in, and two builds must publish the same.
-- (TRY_CAST: a non-finite value is left out of the sum rather than failing the build.)
CREATE OR REPLACE TABLE str_seasonality AS
WITH r AS (
  SELECT listing_id AS id, CAST(date_trunc('month', CAST(date AS DATE)) AS DATE) AS month FROM stg_airbnb_reviews
),
win AS (
  SELECT max(month) AS win_to, CAST(max(month) - to_months(CAST($seasonality_months AS INTEGER)) AS DATE) AS win_from FROM r
),
inwin AS (
  SELECT coalesce(b.la_code, '*') AS la_code, month(r.month) AS moy
  FROM r CROSS JOIN win LEFT JOIN str_listing_base b USING (id)
  WHERE r.month >= win.win_from AND r.month < win.win_to
),
months AS (
  SELECT m AS moy, CASE WHEN m = 2 THEN 28.25 WHEN m IN (4, 6, 9, 11) THEN 30 ELSE 31 END AS days
  FROM range(1, 13) t(m)
),
gcount AS (
  SELECT m.moy, m.days, count(i.moy) AS n FROM months m LEFT JOIN inwin i USING (moy) GROUP BY m.moy, m.days
),
gshare AS (
  SELECT moy, days, n,
         CASE WHEN sum(n) OVER () > 0 THEN n / sum(n) OVER ()
              ELSE CAST(string_split($season_prior, ',')[moy] AS DOUBLE) / list_sum(list_transform(string_split($season_prior, ','), x -> CAST(x AS DOUBLE))) END AS g,
         CASE WHEN sum(n) OVER () > 0 THEN 'reviews' ELSE 'national_prior' END AS source
  FROM gcount
),
las AS (
  SELECT DISTINCT la_code FROM str_listing_base WHERE la_code IS NOT NULL
),
la_counts AS (
  SELECT l.la_code, g.moy, g.days, g.g, g.source AS build_source, count(i.moy) AS n
  FROM las l CROSS JOIN gshare g
  LEFT JOIN inwin i ON i.la_code = l.la_code AND i.moy = g.moy
  GROUP BY l.la_code, g.moy, g.days, g.g, g.source
),
shares AS (
  SELECT '*' AS la_code, moy, days, n, g AS share, source FROM gshare
  UNION ALL
  SELECT la_code, moy, days, n, (n + $seasonality_prior * g) / (sum(n) OVER (PARTITION BY la_code) + $seasonality_prior) AS share,
         CASE WHEN build_source = 'national_prior' THEN build_source
              WHEN sum(n) OVER (PARTITION BY la_code) > 0 THEN 'reviews' ELSE 'build_wide' END AS source
  FROM la_counts
),
idx AS (
  SELECT *, share * 365.25 / days AS demand_index, pow(share * 365.25 / days, $adr_elasticity) AS raw_adr FROM shares
)
SELECT
  la_code,
  moy AS month_of_year,
  n AS reviews,
  demand_index,
  raw_adr / (CAST(sum(TRY_CAST(raw_adr * days AS DECIMAL(38, 9))) OVER (PARTITION BY la_code) AS DOUBLE) / 365.25) AS adr_index,
  (SELECT win_from FROM win) AS window_from,
  (SELECT win_to FROM win) AS window_to,
  source
FROM idx
