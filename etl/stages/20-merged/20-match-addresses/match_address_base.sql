-- The address base as the matcher indexes it: one row per UPRN.
SELECT uprn, postcode, post_town, sub_building, building_name, building_number, street_name FROM addresses
