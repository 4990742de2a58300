UPDATE accounts SET tier = $2, cycle = $3, grant_credits = $4, spent = $5, used = $6, pending_tier = $7, free_granted = $8 WHERE id = $1
