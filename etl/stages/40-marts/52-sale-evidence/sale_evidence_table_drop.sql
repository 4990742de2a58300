-- sale_evidence_table_drop: the tables are the stage's own, not tables of the build.
DROP TABLE IF EXISTS sale_evidence_t;
DROP TABLE IF EXISTS sale_evidence_paths;
DROP TABLE IF EXISTS sale_evidence_ages;
