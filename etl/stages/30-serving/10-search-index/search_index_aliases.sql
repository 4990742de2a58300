-- search_index_aliases: other wordings of each address, '|'-separated, that search also finds
-- it by (docs/open-data.md). On an open-data build: its certificates' other wordings
-- (address_aliases) and the Price Paid form of every sale matched to it, which is how a buyer
-- or agent writes it. An AddressBase build's canonical addresses need none: empty ($open false).
CREATE OR REPLACE TABLE search_index_aliases AS
SELECT uprn, string_agg(DISTINCT alias, '|' ORDER BY alias) AS aliases
FROM (
  SELECT uprn, alias FROM address_aliases
  UNION ALL
  SELECT m.uprn, upper(concat_ws(', ', nullif(trim(p.saon), ''), nullif(trim(p.paon), ''), nullif(trim(p.street), ''), nullif(trim(p.locality), ''), nullif(trim(p.town), ''), p.postcode)) AS alias
  FROM sale_matches m JOIN ppd_current p ON p.transaction_id = m.id
  WHERE m.uprn IS NOT NULL
)
WHERE $open AND alias <> ''
GROUP BY uprn
