SELECT ledger_lock_account($1)
