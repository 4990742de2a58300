SELECT allowed, counted, oldest_ms FROM rate_hit($1, $2, $3, $4)
