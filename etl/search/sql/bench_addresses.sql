-- Addresses-only synthetic national-scale data for bench/search.ts ($n addresses): 30
-- positions per street (numbers 1-24, then flats 1-6 of number 25), 40 streets per town,
-- 15 addresses per postcode, 2,000 postcodes per district. Street names repeat across
-- towns as they do nationally (about 1,500 stem x type combinations). $stems, $types and
-- $syllables are lists of words.
CREATE OR REPLACE TABLE addresses AS
WITH base AS (
  SELECT i,
         i // 30 AS street_id,
         i % 30 AS pos,
         i // 1200 AS town_id,
         i // 15 AS pc_id
  FROM range($n::BIGINT) t(i)
), named AS (
  SELECT *,
         list_element($stems, (hash(street_id) % len($stems))::INT + 1) || ' ' || list_element($types, (hash(street_id * 7 + 3) % len($types))::INT + 1) AS street_name,
         list_element($syllables, (town_id % len($syllables))::INT + 1) || list_element($syllables, ((town_id // len($syllables)) % len($syllables))::INT + 1) || 'TON' AS town_name,
         CASE WHEN pos < 24 THEN NULL ELSE 'FLAT ' || (pos - 23) END AS sub_building,
         CASE WHEN pos < 24 THEN (pos + 1)::VARCHAR ELSE '25' END AS building_number,
         chr(65 + ((pc_id // 2000) % 26)::INT) || chr(65 + ((pc_id // 52000) % 26)::INT) || ((pc_id // 2000) // 676 + 1)::VARCHAR
           || ' ' || (((pc_id % 2000) // 400))::VARCHAR || chr(65 + ((pc_id % 400) // 20)::INT) || chr(65 + (pc_id % 20)::INT) AS postcode
  FROM base
)
SELECT 100000000000 + i AS uprn,
       concat_ws(', ', sub_building, building_number || ' ' || street_name, town_name, postcode) AS address,
       sub_building, NULL::VARCHAR AS building_name, building_number, street_name, NULL::VARCHAR AS locality, town_name, postcode,
       50.5 + ((town_id * 0.6180339887) % 1) * 5 + (pos * 0.00001) AS lat,
       -4.5 + ((town_id * 0.4142135623) % 1) * 5 + ((street_id % 40) * 0.0003) AS lng
FROM named;
