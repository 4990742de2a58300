-- rent_lets: every let (whole property or one room) agreed in the 24 months to the end of the rental evidence's latest month ($window_end),
-- one row per let, with its areas and a position: the let's UPRN where the evidence names one
-- known to the build, else its postcode's. The long-term rents endpoint aggregates these rows
-- by sector, outcode or radius (and property type), which the area marts cannot.
CREATE OR REPLACE TABLE rent_lets AS
SELECT
  r.evidence_id,
  r.let_date::DATE AS let_date,
  r.let_type,
  r.property_type,
  r.bedrooms,
  r.rent_pcm,
  r.postcode,
  left(r.postcode, length(r.postcode) - 2) AS sector,
  split_part(r.postcode, ' ', 1) AS outcode,
  pc.la_code AS district,
  p.uprn,
  coalesce(p.lat, pc.lat) AS lat,
  coalesce(p.lng, pc.lng) AS lng
FROM stg_rental_evidence r
LEFT JOIN properties p ON p.uprn = r.uprn
LEFT JOIN postcodes pc ON pc.postcode = r.postcode
WHERE r.let_date::DATE > $window_end::DATE - INTERVAL 24 MONTH AND r.let_date::DATE <= $window_end::DATE
ORDER BY outcode, sector, postcode, let_date, evidence_id
