-- sale_evidence_by_postcode: the sales with a floor area (located or not) by postcode id, then
-- UPRN, month and price (date and transaction id: the same bytes every build).
SELECT uprn, price, month, latest, lat, lng, type_code, floor_area_sqft, age_id, postcode_id, path_id
FROM sale_evidence_t
WHERE floor_area_sqft > 0
ORDER BY postcode_id, uprn, month, price, date, transaction_id
