-- match_open_data_strict_sales, for the certificates without a UPRN of their own.
UPDATE epc_matches SET uprn = NULL, method = NULL, score = NULL, reason = 'low_similarity_sparse_base'
WHERE uprn IS NOT NULL AND score < $min_similarity
