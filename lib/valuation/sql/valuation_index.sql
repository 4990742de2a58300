-- valuation_index: the area price index as the sale valuation reads it (service/valuers/sale-valuer.ts, and
-- the ETL for the evidence file, etl/stages/40-marts/52-sale-evidence):
-- log index by area and month number (year × 12 + month − 1), and enough_sales (docs/marts.md).
SELECT
  area_level,
  area_code,
  (CAST(substr(month, 1, 4) AS INTEGER) * 12 + CAST(substr(month, 6, 2) AS INTEGER) - 1)::INTEGER AS month_no,
  ln(index) AS log_index,
  enough_sales
FROM price_index_monthly
WHERE index > 0
ORDER BY area_level, area_code, month_no
