-- str_listing_prior_months: the 12 months before each listing's published history (the first
-- 12 of the 36 computed in str_listing_months_all), live flag and revenue only, so that the
-- market analysis can give each of the 24 published months a year-on-year change for any
-- selection of listings (str_area_months does the same for whole areas).
CREATE OR REPLACE TABLE str_listing_prior_months AS
SELECT m.id, m.month, m.live, m.revenue
FROM str_listing_months_all m JOIN str_listing_base b USING (id)
WHERE m.month <= CAST(b.scrape_month - to_months(CAST($history_months AS INTEGER)) AS DATE)
  AND m.month > CAST(b.scrape_month - to_months(CAST($history_months AS INTEGER) + 12) AS DATE)
