-- lookup_room_rents: each area's rent of a room in a shared house (rents_rooms, key
-- "level:code") for GET /rents/hmo: written by the ETL as lookup-area-rooms.rows
-- (lib/files/lookup-tables-format.ts), or for an older build held in the process (service/lookups/keyed.ts).
SELECT area_level || ':' || area_code AS key, source, median_pcm, mean_pcm, p25_pcm, p75_pcm, sample_size, evidence_count, la_code
FROM rents_rooms ORDER BY key
