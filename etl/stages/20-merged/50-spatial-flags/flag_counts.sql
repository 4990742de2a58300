-- Counts of the flag tables for the build manifest.
-- located: UPRNs with coordinates; covered: those of them with flags (inside the layers' coverage).
SELECT count(*)::BIGINT AS uprns,
       (SELECT count(DISTINCT uprn) FROM spatial_points WHERE lat IS NOT NULL AND lng IS NOT NULL)::BIGINT AS located,
       count(flood_zone)::BIGINT AS covered,
       count(*) FILTER (WHERE flood_zone_2)::BIGINT AS flood_zone_2,
       count(*) FILTER (WHERE flood_zone_3)::BIGINT AS flood_zone_3,
       count(*) FILTER (WHERE conservation_area)::BIGINT AS conservation_area,
       count(*) FILTER (WHERE article_4)::BIGINT AS article_4,
       count(*) FILTER (WHERE listed_building)::BIGINT AS listed_building,
       (SELECT count(*) FROM uprn_designations)::BIGINT AS designations
FROM uprn_flags;
