INSERT INTO accounts (id, name, created_at, rate_limit, tier, cycle, grant_credits, spent, used, pending_tier, free_granted) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
