-- check_index_vs_ukhpi: each district's own repeat-sales index against the official UK HPI
-- over the same $window_months months (docs/marts.md, "The index against UK HPI"). The window
-- ends at the latest month both have for the district (UK HPI is published weeks behind), and
-- only districts whose own index stands at that month (enough_sales) are compared: the others
-- already rest on a wider area's index. A gap over $tolerance_pp percentage points is flagged;
-- a flagged district's index does not carry a High valuation (service/domain/valuation/sale.ts).
WITH ours AS (
  SELECT area_code, month, index, enough_sales, repeat_pairs FROM price_index_monthly WHERE area_level = 'district'
),
ends AS (
  SELECT o.area_code, least(max(o.month), max(u.month)) AS end_month
  FROM ours o JOIN ukhpi_monthly u ON u.area_code = o.area_code AND u.month = o.month
  GROUP BY o.area_code
),
windowed AS (
  SELECT e.area_code, e.end_month,
    strftime(CAST(e.end_month || '-01' AS DATE) - to_months(CAST($window_months AS INTEGER)), '%Y-%m') AS start_month
  FROM ends e
)
SELECT
  w.area_code AS district, w.start_month, w.end_month,
  o1.repeat_pairs,
  o1.index / o0.index - 1 AS index_change,
  u1.index / u0.index - 1 AS ukhpi_change,
  100 * abs((o1.index / o0.index) - (u1.index / u0.index)) AS gap_pp,
  100 * abs((o1.index / o0.index) - (u1.index / u0.index)) > $tolerance_pp AS flagged
FROM windowed w
JOIN ours o1 ON o1.area_code = w.area_code AND o1.month = w.end_month
JOIN ours o0 ON o0.area_code = w.area_code AND o0.month = w.start_month
JOIN ukhpi_monthly u1 ON u1.area_code = w.area_code AND u1.month = w.end_month
JOIN ukhpi_monthly u0 ON u0.area_code = w.area_code AND u0.month = w.start_month
WHERE o1.enough_sales AND u0.index > 0 AND o0.index > 0
ORDER BY w.area_code
