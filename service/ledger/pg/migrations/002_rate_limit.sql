-- The shared exact sliding window (service/domain/rate-window.ts, across replicas): the
-- accepted request times per key. UNLOGGED: no WAL, no fsync per request; a PostgreSQL
-- crash empties it, which at worst lets a key one fresh window after the crash.
CREATE UNLOGGED TABLE rate_hits (
  key   text NOT NULL,
  at_ms bigint NOT NULL
);
CREATE INDEX rate_hits_key ON rate_hits (key, at_ms);

-- One decision for one request, in one round trip. The transaction-scoped advisory lock on
-- the key serialises every replica's requests for that key, so the window is exact: the
-- count read and the insert cannot interleave with another replica's. As in the in-process
-- limiter only the newest `p_limit` times inside (now - window, ...] count (the limit may
-- have shrunk since), and a refused request is not recorded. Times from another replica's
-- clock slightly ahead count; times more than a window ahead of this request's (a clock
-- far off, or requests stamped before they reached here out of order) do not.
CREATE FUNCTION rate_hit(p_key text, p_limit integer, p_window_ms bigint, p_now_ms bigint)
RETURNS TABLE (allowed boolean, counted integer, oldest_ms bigint)
LANGUAGE plpgsql AS $$
DECLARE
  times bigint[];
  n integer;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('rate:' || p_key, 0));
  DELETE FROM rate_hits r WHERE r.key = p_key AND r.at_ms <= p_now_ms - p_window_ms;
  SELECT coalesce(array_agg(s.at_ms ORDER BY s.at_ms DESC), '{}') INTO times
    FROM (SELECT h.at_ms FROM rate_hits h WHERE h.key = p_key AND h.at_ms > p_now_ms - p_window_ms AND h.at_ms <= p_now_ms + p_window_ms
          ORDER BY h.at_ms DESC LIMIT p_limit) s;
  n := coalesce(array_length(times, 1), 0);
  IF n < p_limit THEN
    INSERT INTO rate_hits (key, at_ms) VALUES (p_key, p_now_ms);
    RETURN QUERY SELECT true, n + 1, least(p_now_ms, coalesce(times[n], p_now_ms));
  ELSE
    RETURN QUERY SELECT false, n, times[n];
  END IF;
END
$$;
