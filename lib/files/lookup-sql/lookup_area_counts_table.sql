-- lookup_area_counts_table: per postcode, sector, outcode and local authority (district): the
-- address-base addresses now there, how many of them have flood flags (located UPRNs; the flags
-- are null without coordinates), how many lie in each flood zone, a conservation area or an
-- Article 4 area, and the matched sales of those homes in the 12 months to the end of Price Paid's latest month
-- ($1, where its windows end, never the build date), and at a postcode also the sales recorded
-- there that no UPRN could be given (docs/open-data.md: every sale counts in its area);
-- the mean position of the located addresses, their most common country and post town.
-- Made by the ETL (area-lookup stage), or when an older build without its file opens; keyed
-- "level:code"; dropped once read (lookup_area_counts_drop).
CREATE TABLE lk_area_counts AS
WITH homes AS (
  SELECT p.uprn, p.postcode, p.sector, p.outcode, p.la_code AS district, p.lat, p.lng, p.country, a.post_town,
         p.flood_zone, p.flood_zone_2, p.flood_zone_3, p.conservation_area, p.article_4
  FROM properties p LEFT JOIN addresses a USING (uprn)
),
by_level AS (
  UNPIVOT homes ON postcode, sector, outcode, district INTO NAME level VALUE code
),
recent AS (
  SELECT uprn, count(*) AS n
  FROM sales
  WHERE date > $1::DATE - INTERVAL 12 MONTH AND date <= $1::DATE
  GROUP BY uprn
),
unplaced AS (
  SELECT 'postcode' AS level, postcode AS code, count(*) AS n
  FROM sales_unmatched
  WHERE price > 0 AND date > $1::DATE - INTERVAL 12 MONTH AND date <= $1::DATE
  GROUP BY postcode
),
-- An area's most common country and post town, a tie to the first by name: mode() breaks ties
-- in no fixed order, and a published file is the same every time its inputs are.
countries AS (
  SELECT level, code, first(country ORDER BY n DESC, country) AS country
  FROM (SELECT level, code, country, count(*) AS n FROM by_level WHERE country IS NOT NULL GROUP BY ALL)
  GROUP BY ALL
),
towns AS (
  SELECT level, code, first(post_town ORDER BY n DESC, post_town) AS post_town
  FROM (SELECT level, code, post_town, count(*) AS n FROM by_level WHERE post_town IS NOT NULL GROUP BY ALL)
  GROUP BY ALL
),
counts AS (
SELECT level || ':' || code AS key, level, code,
       count(*)::INTEGER AS addresses,
       count(flood_zone)::INTEGER AS located,
       count(*) FILTER (WHERE flood_zone = 1)::INTEGER AS flood_zone_1,
       count(*) FILTER (WHERE flood_zone = 2)::INTEGER AS flood_zone_2_only,
       count(*) FILTER (WHERE flood_zone_2)::INTEGER AS flood_zone_2,
       count(*) FILTER (WHERE flood_zone_3)::INTEGER AS flood_zone_3,
       count(*) FILTER (WHERE conservation_area)::INTEGER AS conservation_area,
       count(*) FILTER (WHERE article_4)::INTEGER AS article_4,
       (coalesce(sum(recent.n), 0) + coalesce(max(unplaced.n), 0))::INTEGER AS sales_12m,
       -- Summed exactly (DECIMAL), so the mean does not hang on the order DuckDB's threads add in.
       avg(lat::DECIMAL(18, 12))::DOUBLE AS lat, avg(lng::DECIMAL(18, 12))::DOUBLE AS lng
FROM by_level LEFT JOIN recent USING (uprn) LEFT JOIN unplaced USING (level, code)
GROUP BY ALL
)
SELECT c.*, countries.country, towns.post_town
FROM counts c LEFT JOIN countries USING (level, code) LEFT JOIN towns USING (level, code)
