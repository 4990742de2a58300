-- crime_points_summary: what GET /crime shows of the whole set, kept in crime-points.rows'
-- meta: every month the build's crimes cover (placed or not, ascending, a JSON array) and the
-- latest police.uk release among them.
SELECT coalesce(to_json(list(DISTINCT month ORDER BY month)), '[]')::VARCHAR AS months, max(release) AS latest_release
FROM crime
