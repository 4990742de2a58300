SELECT outcome, remaining, reservation_id FROM ledger_reserve($1, $2, $3, $4)
