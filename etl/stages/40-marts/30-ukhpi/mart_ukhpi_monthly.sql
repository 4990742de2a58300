-- ukhpi_monthly: the operator's UK HPI file as loaded (the latest file wins per area and
-- month), for districts whose own sales are too few.
-- Within a file the last row wins (rowid keeps file order), so ties never depend on how
-- DuckDB's threads ordered them.
CREATE OR REPLACE TABLE ukhpi_monthly AS
SELECT
  area_code, month, region_name, index, average_price, change_12m_pct, sales_volume,
  detached_price, detached_index, semi_detached_price, semi_detached_index,
  terraced_price, terraced_index, flat_price, flat_index
FROM stg_ukhpi
QUALIFY row_number() OVER (PARTITION BY area_code, month ORDER BY _file_no DESC, rowid DESC) = 1
