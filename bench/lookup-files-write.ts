/**
 * Where the ETL's lookup-tables stage spends its time (issue 46: the stage took 113 s of a 571 s
 * 1M build under load, the largest stage): for each lookup file, DuckDB's query streamed with
 * each chunk's columns taken as JS values and nothing else (`query`), the same by way of a
 * table (`sorted`: `streamSorted`, as the writer reads since a streamed sort ran a 30M build
 * out of memory), against the whole `writeLookupFile` (`write`: `sorted`, plus the value
 * checks, the row encoding and the file), alternated within each run over the published tables
 * of the bench build, or of the build in `--data DIR` (its `current`).
 *
 *   npx tsx bench/lookup-files-write.ts [--addresses 1000000 | --data DIR] [--runs 3]
 *
 * Writes bench/results/lookup-files-write-<addresses, or the data folder's name>.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { BuildContext } from '../etl/pipeline/context.ts';
import { openBuildDatabase } from '../etl/pipeline/run.ts';
import { streamChunks, streamSorted } from '../etl/pipeline/sql.ts';
import { writeLookupFile } from '../etl/stages/30-serving/write-lookup-file.ts';
import { LOOKUP_FILES, lookupSql, type LookupFileSpec } from '../lib/files/lookup-tables-format.ts';
import { ensureBenchBuild } from './support/bench-build.ts';
import { describeMachine, gitCommit, loadAverage } from './support/machine.ts';
import { arg, argStr, median } from './support/stats.ts';

const ROOT = resolve(import.meta.dirname, '..');
const ADDRESSES = arg('addresses', 1_000_000);
const RUNS = arg('runs', 3);
const log = (msg: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

const DATA = argStr('data', '');
const buildDir = DATA ? join(resolve(DATA), 'current') : (await ensureBenchBuild(ADDRESSES, 42, log)).buildDir;
const TAG = DATA ? basename(resolve(DATA)) : String(ADDRESSES);
const work = mkdtempSync(join(tmpdir(), 'lookup-files-write-'));
const loadBefore = loadAverage();
const db = await openBuildDatabase(work); // its file and spill in the scratch folder
const conn = await db.connect();
try {
  for (const t of ['sales', 'properties', 'epc_linked']) await conn.run(`CREATE TABLE ${t} AS SELECT * FROM read_parquet('${join(buildDir, `${t}.parquet`)}')`);
  const ctx = { db, conn, buildDir: work, artifacts: {}, log: quiet, buildId: 'bench' } as unknown as BuildContext;

  /** The query alone (streamed, or by way of a table): its `before` statements, every chunk's columns as JS values, its `after`. */
  const queryOnly = async (spec: LookupFileSpec, sorted: boolean) => {
    for (const s of spec.before) await conn.run(lookupSql(s));
    let rows = 0;
    const text = lookupSql(spec.query);
    for await (const { chunk } of sorted ? streamSorted(db, conn, `sorted_${spec.artifact}`, text) : streamChunks(db, text)) {
      chunk.getColumns();
      rows += chunk.rowCount;
    }
    for (const s of spec.after) await conn.run(lookupSql(s));
    return rows;
  };
  // typeMonths reads the sales' table, which only its own `after` drops: timed as the stage runs them, sales then typeMonths.
  const specs = [LOOKUP_FILES.sales, LOOKUP_FILES.typeMonths, LOOKUP_FILES.epc];
  const times: Record<string, { query: number[]; sorted: number[]; write: number[]; rows: number; bytes?: number }> = {};
  const MODES = ['query', 'sorted', 'write'] as const;
  for (let run = 1; run <= RUNS; run++) {
    for (const mode of run % 2 === 1 ? MODES : [...MODES].reverse()) {
      for (const spec of specs) {
        const t0 = performance.now();
        const written = mode === 'write' ? await writeLookupFile(ctx, spec) : undefined;
        const rows = written?.rows ?? await queryOnly(spec, mode === 'sorted');
        const ms = performance.now() - t0;
        const t = (times[spec.file] ??= { query: [], sorted: [], write: [], rows });
        t[mode].push(ms);
        if (written) t.bytes = written.bytes;
        log(`run ${run} ${mode} ${spec.file}: ${rows} rows in ${Math.round(ms)} ms`);
      }
    }
  }
  const files = Object.fromEntries(Object.entries(times).map(([f, t]) => {
    const [q, so, w] = [median(t.query), median(t.sorted), median(t.write)];
    return [f, {
      rows: t.rows, bytes: t.bytes, query_ms: Math.round(q), sorted_ms: Math.round(so), write_ms: Math.round(w),
      sorted_over_query: Math.round((so / q) * 100) / 100, query_share_of_write: Math.round((q / w) * 100) / 100,
      query_runs_ms: t.query.map(Math.round), sorted_runs_ms: t.sorted.map(Math.round), write_runs_ms: t.write.map(Math.round),
    }];
  }));
  const result = {
    bench: 'lookup-files-write', command: `npx tsx bench/lookup-files-write.ts ${process.argv.slice(2).join(' ')}`.trim(), when: new Date().toISOString(), commit: gitCommit(),
    addresses: DATA ? null : ADDRESSES, data: DATA || null, runs: RUNS, machine: { ...describeMachine(), load_average_before: loadBefore, load_average_after: loadAverage() },
    method: 'the published sales, properties and epc_linked loaded into a build database (openBuildDatabase: 1 GB, spilling); per lookup file the query streamed with its columns taken (query), the same through a table (sorted: streamSorted) and writeLookupFile whole (write, which reads as sorted does), alternated run to run; medians',
    files,
  };
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', `lookup-files-write-${TAG}.json`), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(files, null, 2));
} finally {
  conn.closeSync();
  db.closeSync();
  rmSync(work, { recursive: true, force: true });
}
