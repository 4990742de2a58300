DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND claim = $3 AND created_at IS NULL
