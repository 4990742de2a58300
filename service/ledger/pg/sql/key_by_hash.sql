SELECT key_id, account_id FROM api_keys WHERE hash = $1 AND revoked_at IS NULL
