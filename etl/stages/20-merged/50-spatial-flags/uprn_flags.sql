-- One row per UPRN of the points view: the flags every endpoint reads.
-- flood_zone_3: inside a level-3 flood-risk-zone feature.
-- flood_zone_2: inside a level-2 OR a level-3 feature (Zone 3 land, 1% annual chance, lies
--   within the 0.1% extent that defines Zone 2).
-- flood_zone: the highest level the point is in, 1 when in none.
-- A UPRN without coordinates gets NULL flags: unknown, not "outside".
-- So does a UPRN outside the layers' coverage: planning.data.gov.uk publishes these layers for
-- England only, so a UPRN whose country (the postcode directory's, else the GSS code prefix) is
-- not England, or is unknown, gets NULL flags: being in no English feature says nothing about a
-- home in Wales or Scotland (Natural Resources Wales and SEPA flood maps are not loaded).
CREATE OR REPLACE TABLE uprn_flags AS
WITH points AS (
  SELECT uprn,
         -- Flags are known for a UPRN with coordinates, in England (the coverage).
         bool_or(lat IS NOT NULL AND lng IS NOT NULL) AND bool_and(coalesce(country = 'England', false)) AS known
  FROM spatial_points
  WHERE uprn IS NOT NULL
  GROUP BY uprn
),
d AS (
  SELECT uprn,
         max(CASE WHEN dataset = 'flood-risk-zone' THEN flood_risk_level END) AS flood_level,
         bool_or(dataset = 'conservation-area') AS conservation_area,
         bool_or(dataset = 'article-4-direction-area') AS article_4,
         bool_or(dataset IN ('listed-building', 'listed-building-outline')) AS listed_building
  FROM uprn_designations
  GROUP BY uprn
)
SELECT p.uprn,
       (CASE WHEN p.known THEN coalesce(d.flood_level, 1) END)::INTEGER AS flood_zone,
       CASE WHEN p.known THEN coalesce(d.flood_level, 1) >= 2 END AS flood_zone_2,
       CASE WHEN p.known THEN coalesce(d.flood_level, 1) >= 3 END AS flood_zone_3,
       CASE WHEN p.known THEN coalesce(d.conservation_area, false) END AS conservation_area,
       CASE WHEN p.known THEN coalesce(d.article_4, false) END AS article_4,
       CASE WHEN p.known THEN coalesce(d.listed_building, false) END AS listed_building
FROM points p
LEFT JOIN d USING (uprn)
ORDER BY p.uprn;
