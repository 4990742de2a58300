INSERT INTO api_keys (key_id, account_id, hash, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5)
