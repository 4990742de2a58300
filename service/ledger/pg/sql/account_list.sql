SELECT id, name, created_at, rate_limit, tier, cycle, grant_credits, spent, used, pending_tier, free_granted FROM accounts ORDER BY ord
