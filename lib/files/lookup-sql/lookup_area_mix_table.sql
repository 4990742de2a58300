-- lookup_area_mix_table: the mix of the addresses of each postcode, sector, outcode and local
-- authority by property type, tenure, construction age band and current EPC rating (the last
-- two not per postcode), one row per value ("unknown" where the record has none). Keyed "level:code";
-- made by the ETL (or when an older build opens), dropped once read (lookup_area_mix_drop).
CREATE TABLE lk_area_mix AS
WITH homes AS (
  SELECT postcode, sector, outcode, la_code AS district,
         coalesce(property_type, 'unknown') AS property_type,
         coalesce(tenure, 'unknown') AS tenure,
         coalesce(construction_age, 'unknown') AS construction_age,
         coalesce(epc_current_rating, 'unknown') AS epc_rating
  FROM properties
),
by_level AS (
  UNPIVOT homes ON postcode, sector, outcode, district INTO NAME level VALUE code
),
by_dim AS (
  UNPIVOT by_level ON property_type, tenure, construction_age, epc_rating INTO NAME dim VALUE value
)
SELECT level || ':' || code AS key, dim, value, count(*)::INTEGER AS n
FROM by_dim
WHERE level <> 'postcode' OR dim IN ('property_type', 'tenure')
GROUP BY ALL
ORDER BY key, dim, n DESC, value
