-- On an open-data build (docs/open-data.md) the address base lacks every home without a
-- certificate, so "the only candidate with these numbers" is often a neighbour of the home
-- that was sold (flat 7 of another building on the street). The matcher's allowance for a
-- lone candidate below MIN_SIMILARITY is withdrawn there: such matches are left unmatched,
-- with their own reason, and the sale still counts in its area's statistics by postcode.
UPDATE sale_matches SET uprn = NULL, method = NULL, score = NULL, reason = 'low_similarity_sparse_base'
WHERE uprn IS NOT NULL AND score < $min_similarity
