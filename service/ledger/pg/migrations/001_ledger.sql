-- The credit ledger (docs/ledger.md, "PostgreSQL"): the same records as the file ledger's
-- log, plus the state they build, kept in step inside each change's transaction.

CREATE TABLE accounts (
  id            text PRIMARY KEY,
  ord           bigserial,          -- creation order (listing)
  name          text NOT NULL,
  created_at    timestamptz NOT NULL,
  -- Enterprise's own limit ({limit, windowMs}); null: the plan's.
  rate_limit    jsonb,
  -- The billing state (service/domain/billing.ts BillingState), one column per field.
  tier          text NOT NULL,
  cycle         integer NOT NULL,
  grant_credits bigint,             -- null: unlimited
  spent         bigint NOT NULL,
  used          bigint NOT NULL,
  pending_tier  text,
  free_granted  boolean NOT NULL
);

CREATE TABLE api_keys (
  key_id     text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  hash       text NOT NULL,         -- SHA-256 of the key; the key itself is never stored
  created_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE UNIQUE INDEX api_keys_active_hash ON api_keys (hash) WHERE revoked_at IS NULL;
CREATE INDEX api_keys_account ON api_keys (account_id);

-- Every change, as the file ledger logs it (service/ledger/records.ts), in commit order.
CREATE TABLE ledger_records (
  seq        bigserial PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  t          text NOT NULL,
  rec        jsonb NOT NULL,
  at         timestamptz NOT NULL
);
CREATE INDEX ledger_records_account ON ledger_records (account_id, seq);

-- Usage aggregated by account, cycle, UTC day and endpoint (as the file ledger's state).
CREATE TABLE usage_cells (
  account_id text NOT NULL REFERENCES accounts (id),
  cycle      integer NOT NULL,
  day        date NOT NULL,
  endpoint   text NOT NULL,
  calls      bigint NOT NULL,
  credits    bigint NOT NULL,
  PRIMARY KEY (account_id, cycle, day, endpoint)
);

-- Credits held by requests in flight. A replica that dies leaves its holds behind; they stop
-- counting at expires_at (database clock), so a crash never locks credits away for long.
CREATE TABLE reservations (
  id         bigserial PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  cost       integer NOT NULL CHECK (cost > 0),
  expires_at timestamptz NOT NULL
);
CREATE INDEX reservations_account ON reservations (account_id, expires_at);
