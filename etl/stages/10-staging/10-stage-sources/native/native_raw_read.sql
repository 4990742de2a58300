-- Every cell as text, columns named by the caller ($columns: name → VARCHAR, in file order).
-- $skip lines are passed over before the header: the first of a layout's two header rows.
-- Dialect fixed (comma, double quote doubled to escape) so nothing is guessed; rows the
-- parser refuses go to native_rejects with their line and error type, never vanish.
-- Unquoted empty cells are NULL, quoted ones ''; the checks read both as ''. Only the
-- columns the checks read are kept (the rest are named x<i>): an EPC file has 90-odd.
-- buffer_size: by default 16 × max_line_size, a 256 MiB block per read whatever the file's
-- size, which fails under a memory limit below about 300 MB (docs/etl.md, "Memory").
CREATE TEMP TABLE native_raw AS
SELECT COLUMNS(c -> NOT regexp_full_match(c, 'x\d+')) FROM read_csv($path, columns = $columns, header = $header, auto_detect = false, delim = ',', quote = '"',
  escape = '"', compression = $compression, null_padding = false, allow_quoted_nulls = false, strict_mode = true,
  skip = $skip, store_rejects = true, rejects_table = 'native_rejects', rejects_scan = 'native_scan', max_line_size = 16777216,
  buffer_size = 33554432)
