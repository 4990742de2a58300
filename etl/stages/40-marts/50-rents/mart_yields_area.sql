-- yields_area: gross yield by area and bedrooms = median monthly rent (rents_area) × 12 ÷
-- median price, brought to the index's last month (Price Paid's latest), of the last 24 months' standard sales of homes
-- in the area with that many bedrooms. Only where both a rent and at least $min_sales sales exist.
-- The rent is rents_area's, thin samples shrunk toward the wider area (rent_sample_size lets,
-- rent_prior_level the wider area used), so a thin area's yield is not one let's.
CREATE OR REPLACE TABLE yields_area AS
WITH prices AS (
  SELECT l.area_level, l.area_code, s.bedrooms, count(*)::INTEGER AS sales_count, median(s.price_now) AS median_price
  FROM mart_recent_sales s
  CROSS JOIN LATERAL (VALUES ('district', s.district), ('outcode', s.outcode), ('sector', s.sector)) AS l(area_level, area_code)
  WHERE l.area_code IS NOT NULL AND s.bedrooms IS NOT NULL
  GROUP BY ALL
)
SELECT
  r.area_level, r.area_code, r.bedrooms,
  r.median_pcm AS median_rent_pcm,
  r.source AS rent_source,
  r.sample_size AS rent_sample_size,
  r.prior_level AS rent_prior_level,
  round(p.median_price, 0) AS median_price,
  p.sales_count,
  round(100 * r.median_pcm * 12 / p.median_price, 2) AS gross_yield_pct
FROM rents_area r
JOIN prices p USING (area_level, area_code, bedrooms)
WHERE p.sales_count >= $min_sales AND r.median_pcm IS NOT NULL
