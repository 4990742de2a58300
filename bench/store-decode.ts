/**
 * What decoding the store's reads costs (ADR 0014): for every declared query
 * (service/store/queries.ts) over the bench build, the time to turn one materialised DuckDB
 * result into the service's values, untyped as before (`getRowObjectsJson` for rows,
 * `getColumnsObjectJS` for columns, `getColumnsObjectJson` for the packed lookup rows) against decoded (`decodeColumns` on `getColumnsJS`, and
 * `rowsFromColumns` for rows), alternated within each run; and running the query itself, for
 * scale. Every store read is a load when a build opens, so the figure is per build, not per request.
 *
 *   npx tsx bench/store-decode.ts [--addresses 100000] [--runs 7]
 *
 * Writes bench/results/store-decode-<N>.json.
 */
import { DuckDBInstance, type DuckDBResultReader } from '@duckdb/node-api';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { decodeColumns, rowsFromColumns } from '../service/store/decode.ts';
import { QUERIES, STATEMENTS, type QueryName } from '../service/store/queries.ts';
import { storeSql } from '../service/store/store.ts';
import { windowEndDate } from '../service/lookups/tables.ts';
import { ensureBenchBuild } from './support/bench-build.ts';
import { arg, median, r2 } from './support/stats.ts';

const ADDRESSES = arg('addresses', 100_000);
const RUNS = arg('runs', 7);

const { buildDir } = await ensureBenchBuild(ADDRESSES, 42);
const manifest = JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
const db = await DuckDBInstance.create(':memory:', { threads: '2' });
const conn = await db.connect();
for (const f of readdirSync(buildDir).filter((n) => n.endsWith('.parquet'))) {
  const t = f.slice(0, -'.parquet'.length);
  await conn.run(`CREATE VIEW ${t} AS SELECT * FROM read_parquet('${join(buildDir, f)}')`);
}
const end = windowEndDate({ id: String(manifest.build_id), dir: buildDir, manifest }, 'price_paid');
for (const s of Object.keys(STATEMENTS).filter((n) => n !== 'lookup_sales_tables_drop')) {
  await conn.run(storeSql(s), s === 'lookup_area_counts_table' ? [end] : []);
}

const names = (Object.keys(QUERIES) as QueryName[]).filter((n) => n !== 'property_by_uprn');
const time = (f: () => unknown) => {
  const t = performance.now();
  f();
  return performance.now() - t;
};

type Sample = { run: number[]; rowsUntyped: number[]; rowsTyped: number[]; colsUntyped: number[]; colsUntypedJson: number[]; colsTyped: number[] };
const samples = new Map<QueryName, Sample & { rows: number }>();
for (let run = 0; run < RUNS; run++) {
  for (const name of names) {
    let r!: DuckDBResultReader;
    const t0 = performance.now();
    r = await conn.runAndReadAll(storeSql(name), name === 'designations_all' ? { path: join(buildDir, 'uprn_designations.parquet') } : []);
    const runMs = performance.now() - t0;
    const s = samples.get(name) ?? { rows: r.currentRowCount, run: [], rowsUntyped: [], rowsTyped: [], colsUntyped: [], colsUntypedJson: [], colsTyped: [] };
    samples.set(name, s);
    s.run.push(runMs);
    const typedRows = () => s.rowsTyped.push(time(() => rowsFromColumns(decodeColumns(name, QUERIES[name], r.columnNames(), r.getColumnsJS()))));
    const untypedRows = () => s.rowsUntyped.push(time(() => r.getRowObjectsJson()));
    const typedCols = () => s.colsTyped.push(time(() => decodeColumns(name, QUERIES[name], r.columnNames(), r.getColumnsJS())));
    const untypedCols = () => {
      s.colsUntyped.push(time(() => r.getColumnsObjectJS()));
      s.colsUntypedJson.push(time(() => r.getColumnsObjectJson()));
    };
    // Alternate which goes first, so neither always runs on a warmer heap.
    if (run % 2) { typedRows(); untypedRows(); typedCols(); untypedCols(); } else { untypedRows(); typedRows(); untypedCols(); typedCols(); }
  }
}
conn.closeSync();
db.closeSync();

const perQuery = names.map((name) => {
  const s = samples.get(name)!;
  return {
    query: name, rows: s.rows, run_ms: r2(median(s.run)),
    rows_untyped_ms: r2(median(s.rowsUntyped)), rows_typed_ms: r2(median(s.rowsTyped)),
    columns_untyped_ms: r2(median(s.colsUntyped)), columns_untyped_json_ms: r2(median(s.colsUntypedJson)), columns_typed_ms: r2(median(s.colsTyped)),
  };
});
/** Per run, the sum over all queries; then the median of those sums. */
const total = (k: keyof Sample) => r2(median(Array.from({ length: RUNS }, (_, i) => names.reduce((a, n) => a + samples.get(n)![k][i]!, 0))));
const totals = {
  run_ms: total('run'), rows_untyped_ms: total('rowsUntyped'), rows_typed_ms: total('rowsTyped'),
  columns_untyped_ms: total('colsUntyped'), columns_untyped_json_ms: total('colsUntypedJson'), columns_typed_ms: total('colsTyped'),
};
const result = {
  benchmark: 'store-decode',
  command: `npx tsx bench/store-decode.ts --addresses ${ADDRESSES} --runs ${RUNS}`,
  when: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  cpu_model: cpus()[0]?.model ?? null,
  load_average_at_end: loadavg().map((x) => r2(x)),
  addresses: ADDRESSES,
  runs: RUNS,
  queries: names.length,
  note: 'ms to convert one materialised result (medians over runs); run_ms is the query itself. Totals: the median over runs of the sum over queries.',
  totals: { ...totals, rows_ratio: r2(totals.rows_typed_ms / totals.rows_untyped_ms), columns_ratio: r2(totals.columns_typed_ms / totals.columns_untyped_ms) },
  per_query: perQuery,
};
const out = resolve(import.meta.dirname, 'results');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, `store-decode-${ADDRESSES}.json`), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result.totals, null, 2));
