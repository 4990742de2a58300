-- Gross floor area per let household of the build's licensed HMOs, loaded once per build by the
-- HMO valuation (docs/valuation-rental-hmo.md, "Letting rooms"): licences matched to a UPRN with
-- `households` recorded, the home's certificate floor area from the property records. One
-- licence per home (its latest-starting, then its reference: renewals would count a house twice).
-- p10_sqft bounds the rooms a floor area holds (9 in 10 licensed HMOs give each household at
-- least this much); median_sqft estimates the rooms of a home whose bedrooms are not recorded.
WITH licensed AS (
  SELECT p.floor_area_sqft / h.households AS sqft_per_household
  FROM hmo_licences h JOIN properties p ON p.uprn = h.uprn
  WHERE h.households > 0 AND p.floor_area_sqft > 0
  QUALIFY row_number() OVER (PARTITION BY h.uprn ORDER BY h.valid_from DESC NULLS LAST, h.licence_reference) = 1
)
SELECT count(*)::INTEGER AS sample_size,
       quantile_cont(sqft_per_household, 0.1) AS p10_sqft,
       quantile_cont(sqft_per_household, 0.5) AS median_sqft
FROM licensed
