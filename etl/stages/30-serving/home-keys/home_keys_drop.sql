-- home_keys_drop: the view and tables are a stage's own while it runs, not of the build.
DROP VIEW IF EXISTS homes_keyed;
DROP TABLE IF EXISTS home_paths;
DROP TABLE IF EXISTS home_ages;
