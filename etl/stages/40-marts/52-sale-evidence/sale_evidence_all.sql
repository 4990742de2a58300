-- sale_evidence_all: every sale of the evidence, in no order (the count and the type and age
-- effects read them all).
SELECT uprn, price, month, latest, lat, lng, type_code, floor_area_sqft, construction_age, postcode_id, sector, outcode, la_code, country
FROM sale_evidence_t
