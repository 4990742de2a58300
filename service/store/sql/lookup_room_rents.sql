-- lookup_room_rents: each area's rent of a room in a shared house (rents_rooms, key
-- "level:code"), loaded whole into the heap for GET /rents/hmo.
SELECT area_level || ':' || area_code AS key, source, median_pcm, mean_pcm, p25_pcm, p75_pcm, sample_size, evidence_count, la_code
FROM rents_rooms ORDER BY key
