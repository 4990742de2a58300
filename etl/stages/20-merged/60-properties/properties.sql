-- properties: the first chunk of the merged record per UPRN (properties_chunk.sql); the
-- others follow by properties_append.sql.
CREATE OR REPLACE TABLE properties AS FROM properties_chunk()
