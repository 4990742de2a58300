SELECT outcome, claim_id, a_status AS status, a_headers AS headers, a_body AS body, a_created_at AS created_at FROM idempotency_claim($1, $2, $3, $4, $5, $6)
