-- lookup_area_counts: every area's counts (lookup_area_counts_table), key "level:code": written by
-- the ETL as lookup-area-counts.rows (lib/files/lookup-tables-format.ts), or for an older build
-- held in the process (service/lookups/keyed.ts).
SELECT * FROM lk_area_counts ORDER BY key
