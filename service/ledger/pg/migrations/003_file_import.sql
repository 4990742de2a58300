-- `accounts migrate-to-postgres`: which file ledger was moved in, once. Its presence makes
-- a second run refuse.
CREATE TABLE file_imports (
  id          integer PRIMARY KEY CHECK (id = 1),
  source_dir  text NOT NULL,
  records     bigint NOT NULL,
  accounts    bigint NOT NULL,
  imported_at timestamptz NOT NULL DEFAULT now()
);
