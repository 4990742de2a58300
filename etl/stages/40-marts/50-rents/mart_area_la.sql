-- mart_area_la: the local authority each sector and outcode mostly lies in (by postcodes),
-- and each local authority itself: where thin evidence falls back to the ONS figures.
-- The most common value is counted with histogram() and ties go to the smallest value: DuckDB's
-- mode() breaks ties by the order rows arrive in, which differs between builds.
CREATE OR REPLACE TABLE mart_area_la AS
SELECT 'sector' AS area_level, sector AS area_code, list_sort(list_transform(map_entries(histogram(la_code)), e -> {'n': -CAST(e.value AS BIGINT), 'v': e.key}))[1].v AS la_code
FROM postcodes WHERE la_code IS NOT NULL GROUP BY sector
UNION ALL
SELECT 'outcode', outcode, list_sort(list_transform(map_entries(histogram(la_code)), e -> {'n': -CAST(e.value AS BIGINT), 'v': e.key}))[1].v
FROM postcodes WHERE la_code IS NOT NULL GROUP BY outcode
UNION ALL
SELECT DISTINCT 'district', la_code, la_code FROM postcodes WHERE la_code IS NOT NULL
UNION ALL
-- An ONS area the postcode directory does not know still answers for itself.
SELECT DISTINCT 'district', area_code, area_code FROM stg_ons_rents
WHERE area_code NOT IN (SELECT la_code FROM postcodes WHERE la_code IS NOT NULL)
