-- Which chunk the certificates stage's statements select: hash(certificate_id) % chunks = chunk
-- for the certificates, hash(uprn) % chunks = chunk for the values per UPRN.
SET VARIABLE certificates_cut = {'chunks': $chunks::UBIGINT, 'chunk': $chunk::UBIGINT}
