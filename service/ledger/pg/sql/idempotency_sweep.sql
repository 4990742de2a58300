DELETE FROM idempotency_keys WHERE created_at < $1::timestamptz - make_interval(secs => $2) OR (created_at IS NULL AND claimed_until <= clock_timestamp())
