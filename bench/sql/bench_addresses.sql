-- Addresses-only synthetic national-scale data for bench/search.ts ($n addresses): 30
-- positions per street (numbers 1-24, then flats 1-6 of number 25), 40 streets per town,
-- 15 addresses per postcode, 2,000 postcodes per district. $stems, $types and $syllables
-- are lists of words.
-- Street names repeat across towns as they do nationally. $calibrated = false: every street
-- takes one of about 1,500 stem x type names uniformly (each name ~0.07% of addresses, every
-- stem word ~1.1%: a worst case for the index). $calibrated = true: the name's rank r among
-- $names names is drawn so that P(rank < k) = (k / $names)^0.545, fitted to the street names
-- of 10,116 random national sales in HM Land Registry Price Paid (top 1 name 0.56% of
-- addresses, top 10 2.35%, top 100 8.1%, top 1,000 28.8%; docs/search.md); the first names
-- use the stems, the rest are syllable triples, each with its own type.
CREATE OR REPLACE TABLE addresses AS
WITH base AS (
  SELECT i,
         i // 30 AS street_id,
         i % 30 AS pos,
         i // 1200 AS town_id,
         i // 15 AS pc_id,
         floor($names * pow((hash(i // 30) % 1000000007) / 1000000007.0, 1 / 0.545))::BIGINT AS name_rank
  FROM range($n::BIGINT) t(i)
), named AS (
  SELECT *,
         CASE WHEN $calibrated THEN
           CASE WHEN name_rank < len($stems) THEN list_element($stems, (name_rank + 1)::INT)
                ELSE list_element($syllables, (name_rank % len($syllables))::INT + 1)
                  || list_element($syllables, ((name_rank // len($syllables)) % len($syllables))::INT + 1)
                  || list_element($syllables, ((name_rank // (len($syllables) * len($syllables))) % len($syllables))::INT + 1)
           END || ' ' || list_element($types, (hash(name_rank * 7 + 3) % len($types))::INT + 1)
         ELSE list_element($stems, (hash(street_id) % len($stems))::INT + 1) || ' ' || list_element($types, (hash(street_id * 7 + 3) % len($types))::INT + 1)
         END AS street_name,
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
