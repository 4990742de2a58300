-- str_listing_src: the latest row of each listing (a listing in several staged scrapes keeps
-- its last-scraped row), with the scrape date of the file it came from: the file's latest
-- last_scraped (listings from a previous scrape carry an earlier date of their own).
-- Within a file the last row wins (rowid keeps file order), so ties never depend on how
-- DuckDB's threads ordered them.
CREATE OR REPLACE TABLE str_listing_src AS
WITH f AS (
  SELECT _file_no, max(CAST(last_scraped AS DATE)) AS scrape_date FROM stg_airbnb_listings GROUP BY _file_no
)
SELECT l.*, f.scrape_date
FROM stg_airbnb_listings l JOIN f USING (_file_no)
QUALIFY row_number() OVER (PARTITION BY l.id ORDER BY l.last_scraped DESC NULLS LAST, l._file_no DESC, l.rowid DESC) = 1
