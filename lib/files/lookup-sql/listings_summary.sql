-- listings_summary: the listings' as-of (the day of the latest update among those served),
-- kept in listings-points.rows' meta.
SELECT max(strftime(updated_at, '%Y-%m-%d')) AS as_of FROM listings WHERE lat IS NOT NULL
