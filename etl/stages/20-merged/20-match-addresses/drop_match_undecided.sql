-- The postcode pass's undecided records, dropped once matched.
DROP TABLE IF EXISTS match_undecided
