-- Every UPRN with coordinates, streamed chunk by chunk into the spatial index.
SELECT uprn, lng, lat
FROM spatial_points
WHERE uprn IS NOT NULL AND lat IS NOT NULL AND lng IS NOT NULL;
