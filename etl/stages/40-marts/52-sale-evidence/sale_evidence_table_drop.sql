-- sale_evidence_table_drop: the table is the stage's own, not a table of the build.
DROP TABLE IF EXISTS sale_evidence_t
