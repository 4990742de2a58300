/**
 * One file-writing stage alone on a build's published tables: `sale-evidence` (at 30M it took
 * 703 s, 12% of the build, and set its peak RSS) or `valuation-homes` (233 s at 30M, 19× its
 * 3M time). The tables it reads are loaded from the build's Parquet into a build database
 * (openBuildDatabase: the ETL's limit and spill), the stage runs --runs times in one process,
 * and each run's files are checked byte for byte against the build's own (a build of the same
 * tables by an older commit must write the same bytes).
 *
 *   npx tsx bench/stage-alone.ts --stage sale-evidence|valuation-homes --data DIR [--runs 3]
 *
 * Under ETL_MEMORY_LIMIT (say 100MB: a 3M build's rows against a tenth of the limit, as 30M's
 * meet 1GB) the file's name ends with the limit.
 *
 * Writes bench/results/stage-alone-<stage>-<data folder's name>[-<limit>].json.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { BuildContext } from '../etl/pipeline/context.ts';
import { etlMemoryLimit, openBuildDatabase } from '../etl/pipeline/run.ts';
import { writeValuationHomes } from '../etl/stages/30-serving/40-valuation-homes/stage.ts';
import { writeSaleEvidence } from '../etl/stages/40-marts/52-sale-evidence/stage.ts';
import { SALE_EVIDENCE_FILE, SALE_EVIDENCE_POSTCODES_FILE } from '../lib/files/sale-evidence-file.ts';
import { VALUATION_HOMES_FILE } from '../lib/files/valuation-homes-file.ts';
import { describeMachine, gitCommit, loadAverage } from './support/machine.ts';
import { arg, argStr, median } from './support/stats.ts';

const DATA = argStr('data', '');
if (!DATA) throw new Error('--data DIR: the data folder of a build (its current build is read)');
const RUNS = arg('runs', 3);
const STAGES = {
  'sale-evidence': { tables: ['sales', 'properties', 'price_index_monthly'], write: writeSaleEvidence, files: [SALE_EVIDENCE_FILE, SALE_EVIDENCE_POSTCODES_FILE] },
  'valuation-homes': { tables: ['properties'], write: writeValuationHomes, files: [VALUATION_HOMES_FILE] },
};
const STAGE = argStr('stage', '') as keyof typeof STAGES;
if (!(STAGE in STAGES)) throw new Error(`--stage: one of ${Object.keys(STAGES).join(', ')}`);
const stage = STAGES[STAGE];
const build = join(resolve(DATA), 'current');
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const log = (msg: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

const loadBefore = loadAverage();
const runs: { ms: number; same_bytes: boolean }[] = [];
let sales: unknown;
for (let run = 1; run <= RUNS; run++) {
  const work = mkdtempSync(join(tmpdir(), `stage-alone-${STAGE}-`));
  const db = await openBuildDatabase(work);
  const conn = await db.connect();
  try {
    for (const t of stage.tables) await conn.run(`CREATE TABLE ${t} AS SELECT * FROM read_parquet('${join(build, `${t}.parquet`)}')`);
    const info = (o: Record<string, unknown>) => void (o.sales !== undefined && (sales = o.sales));
    const ctx = { db, conn, buildDir: work, artifacts: {}, log: { info, warn: () => undefined, error: () => undefined }, buildId: 'bench' } as unknown as BuildContext;
    const t0 = performance.now();
    await stage.write(ctx);
    const ms = Math.round(performance.now() - t0);
    const same = stage.files.every((f) => sha(join(work, f)) === sha(join(build, f)));
    runs.push({ ms, same_bytes: same });
    log(`run ${run}: ${ms} ms, the build's bytes: ${same}`);
  } finally {
    conn.closeSync();
    db.closeSync();
    rmSync(work, { recursive: true, force: true });
  }
}
const result = {
  bench: 'stage-alone', stage: STAGE, command: `npx tsx bench/stage-alone.ts ${process.argv.slice(2).join(' ')}`.trim(), when: new Date().toISOString(), commit: gitCommit(),
  data: DATA, memory_limit: etlMemoryLimit(), sales, runs, median_ms: median(runs.map((r) => r.ms)), peak_rss_mb_process: Math.round(process.resourceUsage().maxRSS / 1024),
  machine: { ...describeMachine(), load_average_before: loadBefore, load_average_after: loadAverage() },
};
writeFileSync(join(import.meta.dirname, 'results', `stage-alone-${STAGE}-${basename(resolve(DATA))}${process.env.ETL_MEMORY_LIMIT ? `-${etlMemoryLimit()}` : ''}.json`), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify({ median_ms: result.median_ms, runs, peak_rss_mb_process: result.peak_rss_mb_process }));
