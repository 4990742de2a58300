-- Every record of match_in with its row number, for the street key (STREET|TOWN) its street
-- fallback looks up: derived in JS (keys.ts recordKey) when the street keys already exist.
SELECT rowid AS n, src, town, p1, p2, p3 FROM match_in
