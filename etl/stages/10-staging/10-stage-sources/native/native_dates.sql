-- Every distinct date the accepted rows speak for (today or not), for the staging cache's as-of on a later day.
SELECT DISTINCT _date AS d FROM native_checked WHERE reason IS NULL AND _date IS NOT NULL ORDER BY 1
