SELECT coalesce(sum(cost), 0)::bigint AS held FROM reservations WHERE account_id = $1 AND expires_at > clock_timestamp()
