-- Every floor-area-matched sale of the build (sqft_sales), loaded once per build into memory
-- by the development GDV endpoint.
SELECT lat, lng, kind, new_build, gbp_sqft FROM sqft_sales WHERE lat IS NOT NULL AND gbp_sqft > 0
