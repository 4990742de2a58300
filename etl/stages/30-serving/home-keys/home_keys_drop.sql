-- home_keys_drop: the tables are a stage's own while it runs, not tables of the build.
DROP TABLE IF EXISTS home_paths;
DROP TABLE IF EXISTS home_ages;
