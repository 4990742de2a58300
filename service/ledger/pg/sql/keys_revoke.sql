UPDATE api_keys SET revoked_at = $3 WHERE account_id = $1 AND key_id = ANY($2::text[]) AND revoked_at IS NULL
