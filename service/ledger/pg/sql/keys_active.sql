SELECT key_id FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL ORDER BY created_at, key_id
