-- The metered request's hot path made cheaper for PostgreSQL (ADR 0007; bench/pg-ledger-cost.ts).
--
-- 1. The account lock is a transaction-scoped advisory lock (ledger_lock_account) instead of
--    SELECT … FOR UPDATE. A row lock writes a WAL record (heap lock) and so made every hold,
--    whose only other write goes to the UNLOGGED reservations, wait for a WAL flush at its
--    commit; the advisory lock writes nothing. Every change to an account's row or holds
--    takes it first (ledger_hold, ledger_charge, and the renewals and plan changes of
--    pg-ledger.ts via account_serialise.sql), so they are serialised exactly as before, and a
--    statement run after it sees every change committed before it was granted.
-- 2. A hold's transaction writes no WAL at all, so it commits without a flush: its foreign key
--    check (a KEY SHARE row lock on the account, i.e. WAL, and multixacts under concurrency)
--    goes; ledger_hold checks the account exists under the lock, and accounts are never
--    deleted. A hold lost in a crash is refused at its commit, as before (ADR 0007).
-- 3. rate_hit counts the window with count/min instead of building and sorting an array of
--    every time in it: the same decision, same figures.
-- 4. Fewer statements run per request: the charge's debit, record and usage cell are one
--    statement, as are the window's delete, count and insert.
-- 5. ledger_charge (ledger_debit returning the account as charged) and key_account.sql (a
--    key's account in the key's own lookup): two round trips fewer per request (of six).
-- 6. ledger_records loses its unused (account_id, seq) index: one index insert fewer per debit.
-- 7. Holds are named by a uuid (ledger_hold), never reused after a crash (below).

CREATE FUNCTION ledger_lock_account(p_account text) RETURNS void
LANGUAGE sql AS $$ SELECT pg_advisory_xact_lock(hashtextextended('acct:' || p_account, 0)) $$;

ALTER TABLE reservations DROP CONSTRAINT reservations_account_id_fkey;

-- A hold is named by a random uuid, not by the table's sequence: a crash empties the UNLOGGED
-- table and restarts its (unlogged) sequence, so a request still holding an id from before
-- the crash could find and charge somebody else's new hold by the same number (tested). The
-- id column stays for a replica still running the previous code (ledger_reserve/ledger_debit).
ALTER TABLE reservations ADD COLUMN hold uuid NOT NULL DEFAULT gen_random_uuid();
ALTER TABLE reservations DROP CONSTRAINT reservations_pkey;
CREATE UNIQUE INDEX reservations_hold ON reservations (hold);

CREATE FUNCTION ledger_hold(p_account text, p_cost integer, p_cycle integer, p_ttl_s double precision)
RETURNS TABLE (outcome text, remaining bigint, hold uuid)
LANGUAGE plpgsql AS $$
DECLARE
  a_cycle integer;
  a_grant bigint;
  a_spent bigint;
  held bigint;
  left_ bigint;
  h uuid;
BEGIN
  -- Answers by RETURN NEXT, and locks directly: each SQL statement run in a function costs
  -- an executor start and end, most of what PostgreSQL spends here.
  PERFORM pg_advisory_xact_lock(hashtextextended('acct:' || p_account, 0)); -- ledger_lock_account, inline
  SELECT a.cycle, a.grant_credits, a.spent INTO a_cycle, a_grant, a_spent FROM accounts a WHERE a.id = p_account;
  IF NOT FOUND THEN outcome := 'unknown'; RETURN NEXT; RETURN; END IF;
  IF a_cycle < p_cycle THEN outcome := 'due'; RETURN NEXT; RETURN; END IF;
  IF a_grant IS NOT NULL THEN
    left_ := greatest(0, a_grant - a_spent);
    SELECT coalesce(sum(r.cost), 0) INTO held FROM reservations r WHERE r.account_id = p_account AND r.expires_at > clock_timestamp();
    IF p_cost > left_ - held THEN outcome := 'exhausted'; remaining := greatest(0, left_ - held); RETURN NEXT; RETURN; END IF;
  END IF;
  INSERT INTO reservations (account_id, cost, expires_at) VALUES (p_account, p_cost, clock_timestamp() + make_interval(secs => p_ttl_s)) RETURNING reservations.hold INTO h;
  outcome := 'ok'; hold := h; RETURN NEXT;
END
$$;

-- The previous code's call, on the new hold.
CREATE OR REPLACE FUNCTION ledger_reserve(p_account text, p_cost integer, p_cycle integer, p_ttl_s double precision)
RETURNS TABLE (outcome text, remaining bigint, reservation_id bigint)
LANGUAGE plpgsql AS $$
DECLARE
  x record;
BEGIN
  SELECT * INTO x FROM ledger_hold(p_account, p_cost, p_cycle, p_ttl_s);
  RETURN QUERY SELECT x.outcome, x.remaining, (SELECT r.id FROM reservations r WHERE r.hold = x.hold);
END
$$;

-- ledger_debit that also returns the account as the charge left it (outcome 'ok'), so the
-- balance header needs no further read.
CREATE FUNCTION ledger_charge(p_hold uuid, p_account text, p_cycle integer, p_cost integer, p_endpoint text, p_day date, p_at timestamptz, p_rec jsonb)
RETURNS TABLE (outcome text, acc_id text, acc_name text, acc_created_at timestamptz, acc_rate_limit jsonb, acc_tier text, acc_cycle integer,
               acc_grant_credits bigint, acc_spent bigint, acc_used bigint, acc_pending_tier text, acc_free_granted boolean)
LANGUAGE plpgsql AS $$
DECLARE
  a_cycle integer;
  live boolean;
  a accounts%ROWTYPE;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('acct:' || p_account, 0)); -- ledger_lock_account, inline
  SELECT x.cycle INTO a_cycle FROM accounts x WHERE x.id = p_account;
  IF NOT FOUND THEN outcome := 'unknown'; RETURN NEXT; RETURN; END IF;
  IF a_cycle < p_cycle THEN outcome := 'due'; RETURN NEXT; RETURN; END IF;
  DELETE FROM reservations r WHERE r.hold = p_hold RETURNING r.expires_at > clock_timestamp() INTO live;
  IF NOT FOUND THEN outcome := 'settled'; RETURN NEXT; RETURN; END IF;
  IF NOT live THEN outcome := 'expired'; RETURN NEXT; RETURN; END IF;
  -- The debit, its record and its usage cell in one statement.
  WITH charged AS (
    UPDATE accounts x SET spent = x.spent + p_cost, used = x.used + p_cost WHERE x.id = p_account RETURNING x.*
  ), logged AS (
    INSERT INTO ledger_records (account_id, t, rec, at) SELECT c.id, 'debit', p_rec, p_at FROM charged c
  ), counted AS (
    INSERT INTO usage_cells (account_id, cycle, day, endpoint, calls, credits) SELECT c.id, c.cycle, p_day, p_endpoint, 1, p_cost FROM charged c
      ON CONFLICT (account_id, cycle, day, endpoint) DO UPDATE SET calls = usage_cells.calls + 1, credits = usage_cells.credits + EXCLUDED.credits
  )
  SELECT * INTO a FROM charged;
  outcome := 'ok'; acc_id := a.id; acc_name := a.name; acc_created_at := a.created_at; acc_rate_limit := a.rate_limit; acc_tier := a.tier;
  acc_cycle := a.cycle; acc_grant_credits := a.grant_credits; acc_spent := a.spent; acc_used := a.used; acc_pending_tier := a.pending_tier;
  acc_free_granted := a.free_granted;
  RETURN NEXT;
END
$$;

CREATE OR REPLACE FUNCTION rate_hit(p_key text, p_limit integer, p_window_ms bigint, p_now_ms bigint)
RETURNS TABLE (allowed boolean, counted integer, oldest_ms bigint)
LANGUAGE plpgsql AS $$
DECLARE
  n integer;
  oldest bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('rate:' || p_key, 0));
  -- One statement after the lock: drop the times that have left the window, count the newest
  -- p_limit times inside it (the count does not see the deletes, one snapshot, but skips
  -- those times anyway) and record this one if it fits.
  WITH gone AS (
    DELETE FROM rate_hits r WHERE r.key = p_key AND r.at_ms <= p_now_ms - p_window_ms
  ), w AS (
    SELECT count(*)::integer AS n, min(s.at_ms) AS oldest
      FROM (SELECT h.at_ms FROM rate_hits h WHERE h.key = p_key AND h.at_ms > p_now_ms - p_window_ms AND h.at_ms <= p_now_ms + p_window_ms
            ORDER BY h.at_ms DESC LIMIT p_limit) s
  ), added AS (
    INSERT INTO rate_hits (key, at_ms) SELECT p_key, p_now_ms FROM w WHERE w.n < p_limit
  )
  SELECT w.n, w.oldest INTO n, oldest FROM w;
  IF n < p_limit THEN
    allowed := true; counted := n + 1; oldest_ms := least(p_now_ms, coalesce(oldest, p_now_ms));
  ELSE
    allowed := false; counted := n; oldest_ms := oldest;
  END IF;
  RETURN NEXT;
END
$$;

-- The old name, for a replica still running the previous code while the new one starts.
CREATE OR REPLACE FUNCTION ledger_debit(p_reservation bigint, p_account text, p_cycle integer, p_cost integer, p_endpoint text, p_day date, p_at timestamptz, p_rec jsonb)
RETURNS text
LANGUAGE sql AS $$
  SELECT c.outcome FROM ledger_charge(coalesce((SELECT r.hold FROM reservations r WHERE r.id = p_reservation), gen_random_uuid()), p_account, p_cycle, p_cost, p_endpoint, p_day, p_at, p_rec) c
$$;

-- No query reads the records by account (they are read in commit order, records_all.sql), and
-- every debit paid for its entry.
DROP INDEX ledger_records_account;
