-- mart_rent_lets: lets agreed in the 24 months to the end of the rental
-- evidence's latest month ($window_end), with their areas: sector and
-- outcode from the let's postcode, district (local authority) from the postcode directory.
-- Bedrooms are capped at 4 (the "4+" category); 0 is a studio.
CREATE OR REPLACE TABLE mart_rent_lets AS
SELECT
  r.let_type,
  least(r.bedrooms, 4) AS bedrooms,
  r.rent_pcm,
  left(r.postcode, length(r.postcode) - 2) AS sector,
  split_part(r.postcode, ' ', 1) AS outcode,
  p.la_code AS district
FROM stg_rental_evidence r
LEFT JOIN postcodes p USING (postcode)
WHERE r.let_date::DATE > $window_end::DATE - INTERVAL 24 MONTH AND r.let_date::DATE <= $window_end::DATE
