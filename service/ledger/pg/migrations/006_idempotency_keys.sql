-- Idempotency-Key (issue 45; docs/ledger.md "Idempotency keys"). Numbered 006, not 005, to
-- leave 005 to the hot-path rewrite of issue 51 that was in progress beside it.
--
-- One row per account and key: while a request runs it holds the key (`claim`, a random
-- uuid, until `claimed_until` on the database clock, so a claim left by a dead replica
-- expires); once its 2xx is charged the row keeps the answer (`created_at` set), written by
-- idempotency_keep in the same transaction as the charge. Logged (not UNLOGGED): a kept
-- answer must survive a PostgreSQL crash as its charge does.
CREATE TABLE idempotency_keys (
  account_id text NOT NULL,
  key text NOT NULL,
  fingerprint text NOT NULL,
  claim uuid,
  claimed_until timestamptz,
  status integer,
  headers jsonb,
  body text,
  created_at timestamptz,
  PRIMARY KEY (account_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

-- Claims (account, key) for a request with `p_fingerprint`, under a transaction-scoped
-- advisory lock on the pair, so two replicas cannot both claim it. Outcomes: 'claimed' (with
-- the claim's uuid), 'replay' (the kept answer), 'mismatch' (kept or running with another
-- fingerprint), 'in_flight' (running with the same fingerprint). A kept answer older than
-- p_retention_s (judged at p_now, the replica's clock, as the charge's time is) or a claim
-- past its expiry is taken over.
CREATE FUNCTION idempotency_claim(p_account text, p_key text, p_fingerprint text, p_now timestamptz, p_retention_s double precision, p_ttl_s double precision)
RETURNS TABLE (outcome text, claim_id uuid, a_status integer, a_headers jsonb, a_body text, a_created_at timestamptz)
LANGUAGE plpgsql AS $$
DECLARE
  r idempotency_keys%ROWTYPE;
  c uuid := gen_random_uuid();
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('idem:' || p_account || E'\t' || p_key, 0));
  SELECT * INTO r FROM idempotency_keys k WHERE k.account_id = p_account AND k.key = p_key;
  IF FOUND THEN
    IF r.created_at IS NOT NULL AND r.created_at + make_interval(secs => p_retention_s) > p_now THEN
      IF r.fingerprint = p_fingerprint THEN
        outcome := 'replay'; a_status := r.status; a_headers := r.headers; a_body := r.body; a_created_at := r.created_at;
      ELSE
        outcome := 'mismatch';
      END IF;
      RETURN NEXT; RETURN;
    END IF;
    IF r.created_at IS NULL AND r.claimed_until > clock_timestamp() THEN
      outcome := CASE WHEN r.fingerprint = p_fingerprint THEN 'in_flight' ELSE 'mismatch' END;
      RETURN NEXT; RETURN;
    END IF;
    UPDATE idempotency_keys k
       SET fingerprint = p_fingerprint, claim = c, claimed_until = clock_timestamp() + make_interval(secs => p_ttl_s),
           status = NULL, headers = NULL, body = NULL, created_at = NULL
     WHERE k.account_id = p_account AND k.key = p_key;
  ELSE
    INSERT INTO idempotency_keys (account_id, key, fingerprint, claim, claimed_until)
    VALUES (p_account, p_key, p_fingerprint, c, clock_timestamp() + make_interval(secs => p_ttl_s));
  END IF;
  outcome := 'claimed'; claim_id := c;
  RETURN NEXT;
END
$$;
