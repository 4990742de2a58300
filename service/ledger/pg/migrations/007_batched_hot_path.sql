-- The hot path in batches (ADR 0013): each worker sends the rate hits, holds and charges its
-- concurrent requests have queued as ONE call of the functions below (pg/batcher.ts), so
-- PostgreSQL pays a round trip, a transaction and (for charges) a WAL flush per batch rather
-- than per request. Each element is decided exactly as the single-request function does
-- (rate_hit, ledger_hold, ledger_charge of migration 004), in array order, each statement
-- seeing the elements before it; the whole batch is one transaction, so a request is answered
-- only after its charge is committed, and a batch that fails charges none of its requests.
--
-- Locks: every account (or rate key) of the batch is locked first, in the order of the lock
-- key itself (its hash), so two batches from different workers wait for one another rather
-- than deadlock, and a renewal or plan change (one account lock) fits anywhere in that order.
-- This number leaves 005 free for a migration developed alongside (issue 45).

CREATE FUNCTION rate_hit_many(p_keys text[], p_limits integer[], p_window_ms bigint[], p_now_ms bigint[])
RETURNS TABLE (i integer, allowed boolean, counted integer, oldest_ms bigint)
LANGUAGE plpgsql AS $$
DECLARE
  n integer;
  oldest bigint;
  k text;
  lim integer;
  win bigint;
  now_ms bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(s.h) FROM (SELECT DISTINCT hashtextextended('rate:' || x, 0) AS h FROM unnest(p_keys) x ORDER BY 1) s;
  FOR j IN 1 .. coalesce(array_length(p_keys, 1), 0) LOOP
    k := p_keys[j]; lim := p_limits[j]; win := p_window_ms[j]; now_ms := p_now_ms[j];
    -- rate_hit's statement (migration 004), without its lock (taken above).
    WITH gone AS (
      DELETE FROM rate_hits r WHERE r.key = k AND r.at_ms <= now_ms - win
    ), w AS (
      SELECT count(*)::integer AS n, min(s.at_ms) AS oldest
        FROM (SELECT h.at_ms FROM rate_hits h WHERE h.key = k AND h.at_ms > now_ms - win AND h.at_ms <= now_ms + win
              ORDER BY h.at_ms DESC LIMIT lim) s
    ), added AS (
      INSERT INTO rate_hits (key, at_ms) SELECT k, now_ms FROM w WHERE w.n < lim
    )
    SELECT w.n, w.oldest INTO n, oldest FROM w;
    i := j;
    IF n < lim THEN
      allowed := true; counted := n + 1; oldest_ms := least(now_ms, coalesce(oldest, now_ms));
    ELSE
      allowed := false; counted := n; oldest_ms := oldest;
    END IF;
    RETURN NEXT;
  END LOOP;
END
$$;

CREATE FUNCTION ledger_hold_many(p_accounts text[], p_costs integer[], p_cycles integer[], p_ttl_s double precision)
RETURNS TABLE (i integer, outcome text, remaining bigint, hold uuid)
LANGUAGE plpgsql AS $$
DECLARE
  a text;
  a_cycle integer;
  a_grant bigint;
  a_spent bigint;
  held bigint;
  left_ bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(s.h) FROM (SELECT DISTINCT hashtextextended('acct:' || x, 0) AS h FROM unnest(p_accounts) x ORDER BY 1) s;
  FOR j IN 1 .. coalesce(array_length(p_accounts, 1), 0) LOOP
    a := p_accounts[j];
    i := j; outcome := NULL; remaining := NULL; hold := NULL;
    SELECT x.cycle, x.grant_credits, x.spent INTO a_cycle, a_grant, a_spent FROM accounts x WHERE x.id = a;
    IF NOT FOUND THEN
      outcome := 'unknown';
    ELSIF a_cycle < p_cycles[j] THEN
      outcome := 'due';
    ELSE
      IF a_grant IS NOT NULL THEN
        left_ := greatest(0, a_grant - a_spent);
        -- Counts the holds this batch took before (same transaction, later statement).
        SELECT coalesce(sum(r.cost), 0) INTO held FROM reservations r WHERE r.account_id = a AND r.expires_at > clock_timestamp();
        IF p_costs[j] > left_ - held THEN outcome := 'exhausted'; remaining := greatest(0, left_ - held); END IF;
      END IF;
      IF outcome IS NULL THEN
        INSERT INTO reservations (account_id, cost, expires_at) VALUES (a, p_costs[j], clock_timestamp() + make_interval(secs => p_ttl_s))
          RETURNING reservations.hold INTO hold;
        outcome := 'ok';
      END IF;
    END IF;
    RETURN NEXT;
  END LOOP;
END
$$;

CREATE FUNCTION ledger_charge_many(p_holds uuid[], p_accounts text[], p_cycles integer[], p_costs integer[], p_endpoints text[], p_days date[], p_ats timestamptz[], p_recs jsonb[])
RETURNS TABLE (i integer, outcome text, acc_id text, acc_name text, acc_created_at timestamptz, acc_rate_limit jsonb, acc_tier text, acc_cycle integer,
               acc_grant_credits bigint, acc_spent bigint, acc_used bigint, acc_pending_tier text, acc_free_granted boolean)
LANGUAGE plpgsql AS $$
DECLARE
  a text;
  a_cycle integer;
  live boolean;
  x accounts%ROWTYPE;
BEGIN
  PERFORM pg_advisory_xact_lock(s.h) FROM (SELECT DISTINCT hashtextextended('acct:' || y, 0) AS h FROM unnest(p_accounts) y ORDER BY 1) s;
  FOR j IN 1 .. coalesce(array_length(p_accounts, 1), 0) LOOP
    a := p_accounts[j];
    i := j; outcome := NULL; acc_id := NULL; acc_name := NULL; acc_created_at := NULL; acc_rate_limit := NULL; acc_tier := NULL; acc_cycle := NULL;
    acc_grant_credits := NULL; acc_spent := NULL; acc_used := NULL; acc_pending_tier := NULL; acc_free_granted := NULL;
    SELECT c.cycle INTO a_cycle FROM accounts c WHERE c.id = a;
    IF NOT FOUND THEN outcome := 'unknown'; RETURN NEXT; CONTINUE; END IF;
    IF a_cycle < p_cycles[j] THEN outcome := 'due'; RETURN NEXT; CONTINUE; END IF;
    DELETE FROM reservations r WHERE r.hold = p_holds[j] RETURNING r.expires_at > clock_timestamp() INTO live;
    IF NOT FOUND THEN outcome := 'settled'; RETURN NEXT; CONTINUE; END IF;
    IF NOT live THEN outcome := 'expired'; RETURN NEXT; CONTINUE; END IF;
    -- ledger_charge's statement (migration 004): the debit, its record and its usage cell.
    WITH charged AS (
      UPDATE accounts c SET spent = c.spent + p_costs[j], used = c.used + p_costs[j] WHERE c.id = a RETURNING c.*
    ), logged AS (
      INSERT INTO ledger_records (account_id, t, rec, at) SELECT c.id, 'debit', p_recs[j], p_ats[j] FROM charged c
    ), counted AS (
      INSERT INTO usage_cells (account_id, cycle, day, endpoint, calls, credits) SELECT c.id, c.cycle, p_days[j], p_endpoints[j], 1, p_costs[j] FROM charged c
        ON CONFLICT (account_id, cycle, day, endpoint) DO UPDATE SET calls = usage_cells.calls + 1, credits = usage_cells.credits + EXCLUDED.credits
    )
    SELECT * INTO x FROM charged;
    outcome := 'ok'; acc_id := x.id; acc_name := x.name; acc_created_at := x.created_at; acc_rate_limit := x.rate_limit; acc_tier := x.tier;
    acc_cycle := x.cycle; acc_grant_credits := x.grant_credits; acc_spent := x.spent; acc_used := x.used; acc_pending_tier := x.pending_tier;
    acc_free_granted := x.free_granted;
    RETURN NEXT;
  END LOOP;
END
$$;

-- The single-request functions of migration 004 become batches of one, so each decision is
-- written once (above); a replica still on the previous code calls them unchanged.
CREATE OR REPLACE FUNCTION rate_hit(p_key text, p_limit integer, p_window_ms bigint, p_now_ms bigint)
RETURNS TABLE (allowed boolean, counted integer, oldest_ms bigint)
LANGUAGE sql AS $$
  SELECT m.allowed, m.counted, m.oldest_ms FROM rate_hit_many(ARRAY[p_key], ARRAY[p_limit], ARRAY[p_window_ms], ARRAY[p_now_ms]) m
$$;

CREATE OR REPLACE FUNCTION ledger_hold(p_account text, p_cost integer, p_cycle integer, p_ttl_s double precision)
RETURNS TABLE (outcome text, remaining bigint, hold uuid)
LANGUAGE sql AS $$
  SELECT m.outcome, m.remaining, m.hold FROM ledger_hold_many(ARRAY[p_account], ARRAY[p_cost], ARRAY[p_cycle], p_ttl_s) m
$$;

CREATE OR REPLACE FUNCTION ledger_charge(p_hold uuid, p_account text, p_cycle integer, p_cost integer, p_endpoint text, p_day date, p_at timestamptz, p_rec jsonb)
RETURNS TABLE (outcome text, acc_id text, acc_name text, acc_created_at timestamptz, acc_rate_limit jsonb, acc_tier text, acc_cycle integer,
               acc_grant_credits bigint, acc_spent bigint, acc_used bigint, acc_pending_tier text, acc_free_granted boolean)
LANGUAGE sql AS $$
  SELECT m.outcome, m.acc_id, m.acc_name, m.acc_created_at, m.acc_rate_limit, m.acc_tier, m.acc_cycle, m.acc_grant_credits, m.acc_spent, m.acc_used,
         m.acc_pending_tier, m.acc_free_granted
    FROM ledger_charge_many(ARRAY[p_hold], ARRAY[p_account], ARRAY[p_cycle], ARRAY[p_cost], ARRAY[p_endpoint], ARRAY[p_day], ARRAY[p_at], ARRAY[p_rec]) m
$$;
