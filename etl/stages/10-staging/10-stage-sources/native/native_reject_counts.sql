SELECT reason, count(*)::BIGINT AS n FROM native_checked WHERE reason IS NOT NULL GROUP BY reason ORDER BY reason
