-- The repeat-sale pair cells of one area level ($level: country, district, outcode or
-- sector): each area's pairs summed by (m1, m2) over its area paths, in code then month order,
-- so an area's cells arrive together and the stage solves it as the next area starts. Σy is
-- summed exactly (DECIMAL, as in mart_repeat_pairs) and only then made a DOUBLE: the result
-- does not depend on the order DuckDB's threads add rows in. Made a table, then streamed in
-- its insertion order: DuckDB 1.5 holds a streamed ORDER BY's rows in memory, while a sort
-- into a table spills (docs/etl.md "Memory").
CREATE OR REPLACE TABLE mart_repeat_level_cells AS
SELECT code, m1, m2, sum(n)::INTEGER AS n, CAST(sum(sum_y) AS DOUBLE) AS sum_y
FROM (
  SELECT
    CASE $level
      WHEN 'country' THEN country
      WHEN 'district' THEN district
      WHEN 'outcode' THEN outcode
      WHEN 'sector' THEN sector
      ELSE error('mart_repeat_level_cells: unknown area level ' || $level)
    END AS code,
    m1, m2, n, sum_y
  FROM mart_repeat_pairs
)
WHERE code IS NOT NULL
GROUP BY code, m1, m2
ORDER BY code, m1, m2
