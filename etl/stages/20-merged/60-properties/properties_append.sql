-- Adds one more chunk of the merged record per UPRN to properties (properties_chunk.sql).
INSERT INTO properties FROM properties_chunk()
