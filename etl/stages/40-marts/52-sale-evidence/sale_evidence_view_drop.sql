-- sale_evidence_view_drop: the view is the stage's own, not a table of the build.
DROP VIEW IF EXISTS sale_evidence_v
