SELECT i, allowed, counted, oldest_ms FROM rate_hit_many($1, $2, $3, $4)
