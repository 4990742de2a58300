-- Whether this build has written the street keys (match_street_keys) yet.
SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name = 'match_street_keys'
