-- crime: police.uk street-level crime of the last 12 published months. A month and force
-- published more than once (police.uk re-releases months as outcomes settle) counts only in
-- its latest release, whose rows replace the earlier release's wholesale (ASB rows have no
-- Crime ID to upsert by). Each crime takes its local authority from its LSOA through ONSPD;
-- rows with no position stay (they count in their authority's total, no radius finds them).
-- The most common value is counted with histogram() and ties go to the smallest value: DuckDB's
-- mode() breaks ties by the order rows arrive in, which differs between builds.
CREATE OR REPLACE TABLE crime AS
WITH releases AS (
  SELECT force, month, max(release) AS release FROM stg_police_crime GROUP BY ALL
),
window_start AS (
  SELECT strftime(strptime(max(month) || '-01', '%Y-%m-%d') - INTERVAL 11 MONTH, '%Y-%m') AS first_month FROM releases
),
lsoa_la AS (
  SELECT lsoa21 AS lsoa_code, list_sort(list_transform(map_entries(histogram(oslaua)), e -> {'n': -CAST(e.value AS BIGINT), 'v': e.key}))[1].v AS la_code FROM stg_onspd WHERE lsoa21 IS NOT NULL GROUP BY ALL
)
SELECT c.crime_id, c.month, c.release, c.force, c.falls_within, c.crime_type, c.last_outcome,
       c.lat, c.lng, c.location, c.lsoa_code, c.lsoa_name, l.la_code
FROM stg_police_crime c
JOIN releases r USING (force, month, release)
CROSS JOIN window_start w
LEFT JOIN lsoa_la l USING (lsoa_code)
WHERE c.month >= w.first_month
ORDER BY l.la_code, c.month, c.crime_type;
