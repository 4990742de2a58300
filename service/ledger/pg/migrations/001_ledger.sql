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
-- UNLOGGED: taking a hold costs no WAL flush; a PostgreSQL crash (not a restart) empties
-- the table, which frees the holds of requests that could not have committed anyway.
CREATE UNLOGGED TABLE reservations (
  id         bigserial PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  cost       integer NOT NULL CHECK (cost > 0),
  expires_at timestamptz NOT NULL
);
CREATE INDEX reservations_account ON reservations (account_id, expires_at);

-- The hot path in one round trip each. Both lock the account's row, so every replica's
-- holds and debits on one account are serialised; `p_cycle` is the cycle the caller's
-- clock says the account is in: if the row is behind it, nothing is done ('due') and the
-- caller rolls the account over through domain/billing.ts (pg-ledger.ts) and retries.

-- Take a hold if the cost fits in remaining − live holds (remaining as billing.ts's
-- remainingCredits: grant − spent floored at 0; null grant: unlimited).
CREATE FUNCTION ledger_reserve(p_account text, p_cost integer, p_cycle integer, p_ttl_s double precision)
RETURNS TABLE (outcome text, remaining bigint, reservation_id bigint)
LANGUAGE plpgsql AS $$
DECLARE
  a accounts%ROWTYPE;
  held bigint;
  left_ bigint;
  rid bigint;
BEGIN
  SELECT * INTO a FROM accounts WHERE id = p_account FOR UPDATE;
  IF NOT FOUND THEN RETURN QUERY SELECT 'unknown'::text, NULL::bigint, NULL::bigint; RETURN; END IF;
  IF a.cycle < p_cycle THEN RETURN QUERY SELECT 'due'::text, NULL::bigint, NULL::bigint; RETURN; END IF;
  IF a.grant_credits IS NOT NULL THEN
    left_ := greatest(0, a.grant_credits - a.spent);
    SELECT coalesce(sum(r.cost), 0) INTO held FROM reservations r WHERE r.account_id = p_account AND r.expires_at > clock_timestamp();
    IF p_cost > left_ - held THEN RETURN QUERY SELECT 'exhausted'::text, greatest(0, left_ - held), NULL::bigint; RETURN; END IF;
  END IF;
  INSERT INTO reservations (account_id, cost, expires_at) VALUES (p_account, p_cost, clock_timestamp() + make_interval(secs => p_ttl_s)) RETURNING id INTO rid;
  RETURN QUERY SELECT 'ok'::text, NULL::bigint, rid;
END
$$;

-- Settle a hold as a debit (billing.ts applyDebit: spent and used grow by the cost), with
-- its record and usage cell, in the caller's transaction.
CREATE FUNCTION ledger_debit(p_reservation bigint, p_account text, p_cycle integer, p_cost integer, p_endpoint text, p_day date, p_at timestamptz, p_rec jsonb)
RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  a accounts%ROWTYPE;
  live boolean;
BEGIN
  SELECT * INTO a FROM accounts WHERE id = p_account FOR UPDATE;
  IF NOT FOUND THEN RETURN 'unknown'; END IF;
  IF a.cycle < p_cycle THEN RETURN 'due'; END IF;
  DELETE FROM reservations WHERE id = p_reservation RETURNING expires_at > clock_timestamp() INTO live;
  IF NOT FOUND THEN RETURN 'settled'; END IF;
  IF NOT live THEN RETURN 'expired'; END IF;
  UPDATE accounts SET spent = spent + p_cost, used = used + p_cost WHERE id = p_account;
  INSERT INTO ledger_records (account_id, t, rec, at) VALUES (p_account, 'debit', p_rec, p_at);
  INSERT INTO usage_cells (account_id, cycle, day, endpoint, calls, credits) VALUES (p_account, a.cycle, p_day, p_endpoint, 1, p_cost)
    ON CONFLICT (account_id, cycle, day, endpoint) DO UPDATE SET calls = usage_cells.calls + 1, credits = usage_cells.credits + EXCLUDED.credits;
  RETURN 'ok';
END
$$;
