-- sale_evidence_sized_count: the sales with a floor area (at most that many are held for the
-- type and age effects: some have no index series to bring them to today).
SELECT count(*) AS n FROM sale_evidence_t WHERE floor_area_sqft > 0
