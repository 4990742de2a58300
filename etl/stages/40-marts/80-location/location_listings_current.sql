-- listings_current: each listing's latest state across both feeds: the event with the latest
-- updated_at (file order, then row order within a file, breaks ties), kept only when it is a
-- send that is published. A listing a branch's newer BLM file no longer carries has been
-- withdrawn: BLM is a full load.
CREATE OR REPLACE TABLE listings_current AS
WITH blm_files AS (
  SELECT branch_id, _file_no, max(updated_at) AS file_updated FROM stg_listings WHERE feed = 'blm' GROUP BY ALL
),
latest_blm AS (
  SELECT branch_id, arg_max(_file_no, (file_updated, _file_no)) AS file_no, max(file_updated) AS file_updated FROM blm_files GROUP BY ALL
),
events AS (
  SELECT s.*, s.rowid AS _row FROM stg_listings s
  LEFT JOIN latest_blm b USING (branch_id)
  -- an older bulk file's listing counts only when the newest bulk file of its branch still has it
  WHERE s.feed <> 'blm' OR s._file_no = b.file_no
     OR s.listing_id IN (SELECT listing_id FROM stg_listings x WHERE x.feed = 'blm' AND x._file_no = b.file_no)
)
SELECT * EXCLUDE (_file_no, _row) FROM events
QUALIFY row_number() OVER (PARTITION BY listing_id ORDER BY updated_at DESC, _file_no DESC, event = 'remove' DESC, _row DESC) = 1
  AND event = 'send' AND published;
