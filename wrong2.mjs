import { DuckDBInstance } from '@duckdb/node-api';
const c = await (await DuckDBInstance.create(':memory:')).connect();
const region = process.argv[2], build = process.argv[3];
const cols = Object.fromEntries(Array.from({length:16},(_,i)=>['column'+i,'VARCHAR']));
const r = await c.runAndReadAll(`
WITH t AS (SELECT * FROM read_csv('${region}/truth/sales.csv')),
 s AS (SELECT * FROM '${build}/sales.parquet'),
 a AS (SELECT uprn, address FROM '${build}/addresses.parquet'),
 ab AS (SELECT UPRN AS uprn, SINGLE_LINE_ADDRESS AS addr FROM read_csv('${region.replace('region-open','region-ab')}/addressbase/addressbase-core.csv', all_varchar=true, ignore_errors=true)),
 p AS (SELECT column0 AS tid, column7 AS paon, column8 AS saon, column9 AS street, column3 AS pc FROM read_csv('${region}/ppd/pp-complete.csv', header=false, ignore_errors=true, null_padding=true, columns=${JSON.stringify(cols).replace(/"/g,"'")}))
SELECT s.match_method AS m, round(s.match_score,2) AS sc, p.saon, p.paon, p.street, a.address AS matched_to, (SELECT addr FROM ab WHERE TRY_CAST(ab.uprn AS BIGINT) = t.true_uprn) AS true_addr, (t.true_uprn IN (SELECT uprn FROM a)) AS true_in_base
FROM s JOIN t ON replace(replace(s.transaction_id,'{',''),'}','') = t.transaction_id
JOIN p ON replace(replace(p.tid,'{',''),'}','') = t.transaction_id
JOIN a ON a.uprn = s.uprn
WHERE s.uprn <> t.true_uprn`);
const rows = r.getRowObjectsJson();
console.log(rows.length);
for (const x of rows) console.log([x.m, x.sc, x.true_in_base, `${x.saon ?? ''}|${x.paon}|${x.street}`, '=>', x.matched_to, ' TRUE:', x.true_addr].join(' '));
