DELETE FROM reservations WHERE expires_at <= clock_timestamp()
