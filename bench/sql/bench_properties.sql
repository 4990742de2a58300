-- The properties table for bench/search.ts, from the bench addresses: every column the
-- property record reads, with plausible varied values.
CREATE OR REPLACE TABLE properties AS
SELECT uprn, address, postcode, lat, lng, 'England' AS country,
       CASE WHEN sub_building IS NULL THEN 'Terraced' ELSE 'Flat' END AS property_type,
       CASE WHEN sub_building IS NULL THEN 'Mid-Terrace' ELSE NULL END AS built_form,
       (500 + uprn % 1500)::DOUBLE AS floor_area_sqft,
       (2 + uprn % 5)::INTEGER AS habitable_rooms, (1 + uprn % 4)::INTEGER AS bedrooms,
       CASE WHEN sub_building IS NULL THEN 'Freehold' ELSE 'Leasehold' END AS tenure,
       'England and Wales: 1930-1949' AS construction_age,
       chr(65 + (uprn % 7)::INT) AS epc_current_rating, chr(65 + (uprn % 3)::INT) AS epc_potential_rating,
       NULL::DOUBLE AS plot_size, (100000 + (uprn % 400) * 1000)::BIGINT AS last_sold_price,
       DATE '2015-01-01' + (uprn % 3000)::INTEGER AS last_sold_date,
       uprn % 50 = 0 AS flood_zone_2, uprn % 200 = 0 AS flood_zone_3, uprn % 30 = 0 AS conservation_area,
       CASE WHEN uprn % 200 = 0 THEN 3 WHEN uprn % 50 = 0 THEN 2 ELSE 1 END AS flood_zone,
       uprn % 40 = 0 AS article_4, uprn % 500 = 0 AS listed_building
FROM addresses;
