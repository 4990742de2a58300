SELECT outcome, remaining, hold AS reservation_id FROM ledger_hold($1, $2, $3, $4)
