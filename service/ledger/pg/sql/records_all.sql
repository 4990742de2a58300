SELECT rec FROM ledger_records ORDER BY seq
