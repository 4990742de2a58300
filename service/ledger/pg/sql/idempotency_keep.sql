UPDATE idempotency_keys SET status = $4, headers = $5, body = $6, created_at = $7, claim = NULL, claimed_until = NULL
 WHERE account_id = $1 AND key = $2 AND claim = $3 AND created_at IS NULL
RETURNING true AS kept
