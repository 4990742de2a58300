-- UPRNs that cut the properties into $chunks ranges of about equal rows (approximate
-- quantiles: a sketch of bounded size, where exact ones would hold every UPRN in memory).
SELECT approx_quantile(uprn, list_transform(range(1, $chunks), i -> (i / $chunks)::FLOAT)) AS cuts FROM properties
