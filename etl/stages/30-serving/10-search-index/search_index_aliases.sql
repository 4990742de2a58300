-- search_index_aliases: other wordings of each address, '|'-separated, that search also finds
-- it by (docs/open-data.md): on an open-data build, its certificates' other wordings
-- (address_aliases). An AddressBase build's canonical addresses have none ($open false).
-- Price Paid's forms are not added: that would make the search index depend on every monthly
-- Price Paid file and rebuild it in each refresh, and a home typed as Price Paid writes it is
-- found as well without them (bench/open-data.ts).
CREATE OR REPLACE TABLE search_index_aliases AS
SELECT uprn, string_agg(DISTINCT alias, '|' ORDER BY alias) AS aliases
FROM address_aliases
WHERE $open AND alias <> ''
GROUP BY uprn
