-- Every licence as the matcher reads it (one row per register and licence reference, as
-- hmo_licences keeps them): its id (register file and licence reference), the address line,
-- its postcode and that postcode's post town (to cut the town and county off the line; the
-- smallest where a postcode has two, so every build picks the same). The same row per licence
-- as hmo_licences: the latest start, then the last row of the file.
SELECT h._file_no || ':' || h.case_number AS id, h.address, h.postcode,
       (SELECT min(a.post_town) FROM addresses a WHERE a.postcode = h.postcode) AS town
FROM stg_hmo_register h
WHERE h._file_no NOT IN (SELECT file_no FROM hmo_registers WHERE exemptions)
QUALIFY row_number() OVER (PARTITION BY h._file_no, h.case_number ORDER BY h.licence_start DESC NULLS LAST, h.rowid DESC) = 1
ORDER BY h._file_no, h.case_number
