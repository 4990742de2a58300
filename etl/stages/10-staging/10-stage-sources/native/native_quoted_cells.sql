-- Rows with a quote character in a cell. DuckDB keeps a stray quote in an unquoted cell
-- (`x"y`) as text where csv-parse refuses the record, so a file with any is scanned for them.
SELECT count(*)::BIGINT AS n FROM native_raw WHERE contains(concat_ws('', *COLUMNS(*)), '"')
