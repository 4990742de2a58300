-- The merged property record of one UPRN ($1, BIGINT): the properties table is sorted by
-- uprn, so Parquet row-group statistics prune the scan to one row group.
SELECT uprn, address, postcode, lat, lng, country, property_type, built_form, floor_area_sqft,
       habitable_rooms, bedrooms, tenure, construction_age, epc_current_rating, epc_potential_rating,
       plot_size, last_sold_price, last_sold_date, flood_zone_2, flood_zone_3, conservation_area
FROM properties
WHERE uprn = $1
