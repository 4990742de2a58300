DROP TABLE IF EXISTS native_checked
