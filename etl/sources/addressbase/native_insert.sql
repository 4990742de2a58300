INSERT INTO stg_addressbase
SELECT uprn, parent_uprn, classification_code, easting, northing, lat, lng, single_line_address, organisation, sub_building,
  building_name, building_number, street_name, locality, town_name, post_town, postcode, gss_code, change_code, $file_no
FROM native_checked WHERE reason IS NULL ORDER BY _ord
