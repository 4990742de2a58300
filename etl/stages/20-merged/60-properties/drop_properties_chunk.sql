DROP MACRO TABLE IF EXISTS properties_chunk
