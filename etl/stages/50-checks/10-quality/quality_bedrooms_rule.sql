-- How often the bedrooms-from-habitable-rooms rule gives the true bedroom count.
WITH t AS (
  SELECT TRY_CAST(uprn AS BIGINT) AS uprn, TRY_CAST(bedrooms AS INTEGER) AS bedrooms
  FROM read_csv($truth_properties, header = true, all_varchar = true)
)
SELECT count(*)::BIGINT AS compared, count(*) FILTER (WHERE p.bedrooms = t.bedrooms)::BIGINT AS exact
FROM properties p JOIN t USING (uprn)
WHERE p.bedrooms IS NOT NULL
