-- str_listing_months: the published history, the last history_months months of each listing's
-- str_listing_months_all rows (ending at its scrape month).
CREATE OR REPLACE TABLE str_listing_months AS
SELECT m.*
FROM str_listing_months_all m JOIN str_listing_base b USING (id)
WHERE m.month > CAST(b.scrape_month - to_months(CAST($history_months AS INTEGER)) AS DATE)
