-- sale_evidence_all: every sale of the evidence, in no order (the count and the type and age
-- effects read them all).
SELECT uprn, price, month, latest, lat, lng, type_code, floor_area_sqft, age_id, postcode_id, path_id
FROM sale_evidence_t
