-- The records the postcode pass left undecided (match_undecided) become the work table, for
-- the pass over their outcodes' streets: the others have their matches already.
CREATE OR REPLACE TABLE match_in AS SELECT * FROM match_undecided
