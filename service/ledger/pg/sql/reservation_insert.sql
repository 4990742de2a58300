INSERT INTO reservations (account_id, cost, expires_at) VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3)) RETURNING id
