-- sale_evidence_table: every recorded sale of a home, as the in-heap sale valuer joins them
-- (service/store/sql/valuation_sales.sql to valuation_homes.sql: the same rows, the same type
-- codes, the same postcode ids), and whether it is the home's latest sale (the last in
-- valuation_sales' order: date, then price; sales alike in both are alike to the model, and the
-- transaction id orders them so that every build of the same sales writes the same bytes).
-- A table, not a view: three passes read it, and a view would sort every property and sale
-- for its windows in each. The homes with their area path, age band and postcode ids from
-- homes_keyed (30-serving/home-keys: made first).
CREATE OR REPLACE TABLE sale_evidence_t AS
WITH sold AS (
  SELECT
    uprn, price::DOUBLE AS price, (year(date) * 12 + month(date) - 1)::DOUBLE AS month, date, transaction_id,
    row_number() OVER (PARTITION BY uprn ORDER BY date DESC, price DESC, transaction_id DESC) = 1 AS latest
  FROM sales
  WHERE price > 0 AND uprn IS NOT NULL
)
SELECT
  s.uprn::DOUBLE AS uprn, s.price, s.month, s.latest, s.date, s.transaction_id,
  k.lat::DOUBLE AS lat, k.lng::DOUBLE AS lng,
  CASE k.property_type WHEN 'Detached' THEN 0 WHEN 'Semi-Detached' THEN 1 WHEN 'Terraced' THEN 2 WHEN 'Flat' THEN 3 ELSE 255 END::DOUBLE AS type_code,
  k.floor_area_sqft::DOUBLE AS floor_area_sqft, k.age_id::DOUBLE AS age_id,
  k.postcode_id::DOUBLE AS postcode_id, k.path_id::DOUBLE AS path_id
FROM sold s JOIN homes_keyed k USING (uprn)

