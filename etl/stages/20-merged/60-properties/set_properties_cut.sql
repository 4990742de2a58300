-- Which chunk of the merged record per UPRN properties_chunk() selects: hash(uprn) % chunks = chunk.
SET VARIABLE properties_cut = {'chunks': $chunks::UBIGINT, 'chunk': $chunk::UBIGINT}
