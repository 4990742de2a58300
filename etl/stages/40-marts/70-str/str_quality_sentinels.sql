-- Listings whose price is a sentinel (a repeated round placeholder), for the build manifest (docs/str.md, "Price guard").
SELECT count(*) FILTER (WHERE price_sentinel) AS price_sentinels FROM str_price_guard
