DROP TABLE IF EXISTS native_rejects
