-- ppd_current: Price Paid as it stands after applying monthly updates in file order: the
-- latest record of each transaction wins (A add, C change); one whose latest record is D
-- (delete) is gone. Within a file, later rows win.
CREATE OR REPLACE TABLE ppd_current AS
SELECT * EXCLUDE (_file_no) FROM stg_price_paid
QUALIFY row_number() OVER (PARTITION BY transaction_id ORDER BY _file_no DESC, rowid DESC) = 1
  AND record_status <> 'D'
