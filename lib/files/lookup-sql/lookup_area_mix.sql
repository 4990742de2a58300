-- lookup_area_mix: every area's mixes (lookup_area_mix_table), key "level:code": written by the
-- ETL as lookup-area-mix.rows (lib/files/lookup-tables-format.ts), or for an older build held in
-- the process (service/lookups/keyed.ts).
SELECT key, dim, value, n FROM lk_area_mix ORDER BY key, dim, n DESC, value
