-- properties_chunk(): the merged record per UPRN, as the property endpoint serves it, for the
-- UPRNs whose hash(uprn) % chunks = chunk, both from the variable properties_cut
-- (set_properties_cut.sql). Every input is cut the same way, so each UPRN meets its own
-- certificate, sales and flags. properties.sql and properties_append.sql build the table chunk
-- by chunk: DuckDB (1.5) fails to allocate when the three joins' hash tables outgrow its memory
-- limit together (docs/etl.md, "Memory"); one chunk's tables fit. A variable, not macro
-- arguments bound as statement parameters: with those a chunk took 4-7 s at 1M addresses
-- under 150 MB, against 1.0-1.3 s reading the variable.
-- property_type: from the certificate's built form (Detached, Semi-Detached, Terraced, Flat),
--   else the latest sale's type, else the address base's classification code. tenure: the latest sale's (Freehold/Leasehold); certificates
--   record occupancy, not legal tenure. bedrooms: derived from habitable rooms (flats and
--   houses up to 4 rooms: one reception; houses of 5+: two), see docs/etl.md.
-- The latest sale: on a day with several sales of one UPRN, the greatest transaction_id.
-- Windows, not arg_max over a struct key: DuckDB (1.5) cannot spill such an aggregate's
-- state (out of memory at 10M addresses); a window sorts each UPRN's sales and spills.
CREATE OR REPLACE TEMP MACRO properties_chunk() AS TABLE
WITH last_sale AS (
  SELECT uprn,
         last_value(price IGNORE NULLS) OVER w AS last_sold_price,
         max(date) OVER u AS last_sold_date,
         last_value(property_type IGNORE NULLS) OVER w AS sale_property_type,
         last_value(CASE WHEN tenure IN ('F', 'L') THEN tenure END IGNORE NULLS) OVER w AS sale_tenure,
         count(*) OVER u AS sale_count
  FROM sales WHERE hash(uprn) % getvariable('properties_cut').chunks = getvariable('properties_cut').chunk
  WINDOW u AS (PARTITION BY uprn),
    w AS (PARTITION BY uprn ORDER BY date, transaction_id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
  QUALIFY row_number() OVER (PARTITION BY uprn ORDER BY date DESC, transaction_id DESC) = 1
)
SELECT
  a.uprn,
  a.address,
  a.postcode,
  a.outcode,
  a.sector,
  a.postcode_area,
  a.la_code,
  a.lat,
  a.lng,
  a.country,
  CASE
    WHEN e.epc_property_type IN ('Flat', 'Maisonette') THEN 'Flat'
    WHEN e.built_form = 'Detached' THEN 'Detached'
    WHEN e.built_form = 'Semi-Detached' THEN 'Semi-Detached'
    WHEN e.built_form IN ('Mid-Terrace', 'End-Terrace', 'Enclosed Mid-Terrace', 'Enclosed End-Terrace') THEN 'Terraced'
    WHEN s.sale_property_type = 'D' THEN 'Detached'
    WHEN s.sale_property_type = 'S' THEN 'Semi-Detached'
    WHEN s.sale_property_type = 'T' THEN 'Terraced'
    WHEN s.sale_property_type = 'F' THEN 'Flat'
    -- AddressBase classification: RD02 detached, RD03 semi-detached, RD04 terraced, RD06 flat.
    WHEN a.classification_code = 'RD02' THEN 'Detached'
    WHEN a.classification_code = 'RD03' THEN 'Semi-Detached'
    WHEN a.classification_code = 'RD04' THEN 'Terraced'
    WHEN a.classification_code = 'RD06' THEN 'Flat'
  END AS property_type,
  e.built_form,
  round(e.floor_area_m2 * 10.7639, 0) AS floor_area_sqft,
  e.floor_area_m2,
  e.habitable_rooms,
  CASE
    WHEN e.habitable_rooms IS NULL THEN NULL
    WHEN e.epc_property_type IN ('Flat', 'Maisonette') OR e.habitable_rooms <= 4 THEN greatest(1, e.habitable_rooms - 1)
    ELSE e.habitable_rooms - 2
  END AS bedrooms,
  CASE s.sale_tenure WHEN 'F' THEN 'Freehold' WHEN 'L' THEN 'Leasehold' END AS tenure,
  e.construction_age,
  e.epc_current_rating,
  e.epc_potential_rating,
  e.epc_current_efficiency,
  e.latest_lodgement_date AS epc_lodgement_date,
  CAST(NULL AS DOUBLE) AS plot_size,
  s.last_sold_price,
  s.last_sold_date,
  coalesce(s.sale_count, 0) AS sale_count,
  f.flood_zone,
  f.flood_zone_2,
  f.flood_zone_3,
  f.conservation_area,
  f.article_4,
  f.listed_building
FROM (FROM addresses WHERE hash(uprn) % getvariable('properties_cut').chunks = getvariable('properties_cut').chunk) a
LEFT JOIN (FROM epc_by_uprn WHERE hash(uprn) % getvariable('properties_cut').chunks = getvariable('properties_cut').chunk) e USING (uprn)
LEFT JOIN last_sale s USING (uprn)
LEFT JOIN (FROM uprn_flags WHERE hash(uprn) % getvariable('properties_cut').chunks = getvariable('properties_cut').chunk) f USING (uprn)
