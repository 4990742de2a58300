INSERT INTO stg_os_uprn SELECT uprn, x, y, lat, lng, $file_no FROM native_checked WHERE reason IS NULL ORDER BY _ord
