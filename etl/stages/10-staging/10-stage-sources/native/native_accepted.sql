-- Accepted rows and the latest date they speak for, not after today (a future date is a typo).
SELECT count(*)::BIGINT AS n, max(_date) FILTER (WHERE _date <= $today) AS as_of FROM native_checked WHERE reason IS NULL
