-- etl/sources/price_paid/read.ts undoubleQuotes: a doubled quote left in a cell means one.
CREATE OR REPLACE TEMP MACRO undouble(s) AS replace(s, '""', '"')
