-- valuation_sales: every recorded sale (the sale valuation's £/sq ft evidence), by UPRN and
-- date: price and month number (year × 12 + month − 1).
SELECT
  uprn::DOUBLE AS uprn,
  price::DOUBLE AS price,
  (year(date) * 12 + month(date) - 1)::INTEGER AS month
FROM sales
WHERE price > 0 AND uprn IS NOT NULL
ORDER BY uprn, date, price
