INSERT INTO ledger_records (account_id, t, rec, at) VALUES ($1, $2, $3, $4)
