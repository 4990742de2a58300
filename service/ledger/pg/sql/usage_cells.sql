SELECT cycle, day::text AS day, endpoint, calls, credits FROM usage_cells WHERE account_id = $1
