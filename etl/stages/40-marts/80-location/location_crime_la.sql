-- crime_la: each local authority's crimes over the months of `crime` and its addresses, for
-- the rate per 1,000 addresses that GET /crime sets a radius's rate beside.
CREATE OR REPLACE TABLE crime_la AS
WITH homes AS (
  SELECT la_code, count(*)::INTEGER AS addresses FROM addresses WHERE la_code IS NOT NULL GROUP BY ALL
),
crimes AS (
  SELECT la_code, count(*)::INTEGER AS crimes, count(DISTINCT month)::INTEGER AS months,
         min(month) AS first_month, max(month) AS last_month
  FROM crime WHERE la_code IS NOT NULL GROUP BY ALL
)
SELECT c.la_code, c.crimes, h.addresses, c.months, c.first_month, c.last_month,
       round(1000.0 * c.crimes / h.addresses, 1)::DOUBLE AS per_1000_addresses
FROM crimes c JOIN homes h USING (la_code)
ORDER BY la_code;
