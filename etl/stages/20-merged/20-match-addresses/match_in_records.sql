-- One source's records (the view match_source: id, postcode, town, p1..p3 as the source
-- writes them) into the matcher's work table as source number $src. An ASCII postcode is
-- made canonical here as normalisePostcode (schemas/address-normalise.ts) does: upper case,
-- all but A-Z and 0-9 dropped, the shape checked, one space before the inward code, NULL
-- where the JS gives undefined. A non-ASCII one goes in as written and match-in.ts replaces
-- it with the JS answer: there DuckDB's upper and JS toUpperCase differ ('ß': 'ẞ' against
-- 'SS'). The town goes in as written: the matching jobs normalise it (match-job.ts), each
-- thread remembering the towns it has seen.
INSERT INTO match_in (src, id, postcode, town, p1, p2, p3, outcode)
SELECT $src, id, pc, town, p1, p2, p3, CASE WHEN ascii THEN split_part(pc, ' ', 1) END
FROM (
  SELECT *, CASE
      WHEN NOT ascii THEN postcode
      WHEN regexp_full_match(c, '[A-Z]{1,2}[0-9][A-Z0-9]?[0-9][A-Z]{2}') THEN c[1:-4] || ' ' || c[-3:]
    END AS pc
  FROM (SELECT *, strlen(postcode) = length(postcode) AS ascii, regexp_replace(upper(postcode), '[^A-Z0-9]', '', 'g') AS c FROM match_source)
)
