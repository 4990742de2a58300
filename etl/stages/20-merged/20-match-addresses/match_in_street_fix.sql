-- Each record's street key (match_in_street_js: row number n, street_town) into match_in.
-- In place: the records keep their order.
UPDATE match_in SET street_town = k.street_town
FROM match_in_street_js k WHERE match_in.rowid = k.n
