SELECT i, outcome, remaining, hold AS reservation_id FROM ledger_hold_many($1, $2, $3, $4)
