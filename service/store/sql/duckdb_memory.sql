-- DuckDB's own accounting of the memory it holds, by tag (base tables, indexes, ...): what
-- the store costs outside the JavaScript heap. For bench/serving-memory.ts and diagnosis.
SELECT tag, memory_usage_bytes, temporary_storage_bytes
FROM duckdb_memory()
ORDER BY memory_usage_bytes DESC
