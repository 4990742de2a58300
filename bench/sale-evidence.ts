/**
 * The sale-evidence stage alone on a build's published tables (at 30M it took 703 s, 12% of the
 * build, and set its peak RSS): `writeSaleEvidence` over the build's `sales`, `properties` and
 * `price_index_monthly` loaded into a build database (openBuildDatabase: the ETL's limit and
 * spill), --runs times in one process, each run's files checked byte for byte against the
 * build's own (a build of the same tables by an older commit must write the same bytes).
 *
 *   npx tsx bench/sale-evidence.ts --data DIR [--runs 3]
 *
 * Writes bench/results/sale-evidence-<data folder's name>.json.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { BuildContext } from '../etl/pipeline/context.ts';
import { openBuildDatabase } from '../etl/pipeline/run.ts';
import { writeSaleEvidence } from '../etl/stages/40-marts/52-sale-evidence/stage.ts';
import { SALE_EVIDENCE_FILE, SALE_EVIDENCE_POSTCODES_FILE } from '../lib/files/sale-evidence-file.ts';
import { describeMachine, gitCommit, loadAverage } from './support/machine.ts';
import { arg, argStr, median } from './support/stats.ts';

const DATA = argStr('data', '');
if (!DATA) throw new Error('--data DIR: the data folder of a build (its current build is read)');
const RUNS = arg('runs', 3);
const build = join(resolve(DATA), 'current');
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const log = (msg: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

const loadBefore = loadAverage();
const runs: { ms: number; same_bytes: boolean }[] = [];
let sales: unknown;
for (let run = 1; run <= RUNS; run++) {
  const work = mkdtempSync(join(tmpdir(), 'sale-evidence-'));
  const db = await openBuildDatabase(work);
  const conn = await db.connect();
  try {
    for (const t of ['sales', 'properties', 'price_index_monthly']) await conn.run(`CREATE TABLE ${t} AS SELECT * FROM read_parquet('${join(build, `${t}.parquet`)}')`);
    const info = (o: Record<string, unknown>) => void (o.sales !== undefined && (sales = o.sales));
    const ctx = { db, conn, buildDir: work, artifacts: {}, log: { info, warn: () => undefined, error: () => undefined }, buildId: 'bench' } as unknown as BuildContext;
    const t0 = performance.now();
    await writeSaleEvidence(ctx);
    const ms = Math.round(performance.now() - t0);
    const same = [SALE_EVIDENCE_FILE, SALE_EVIDENCE_POSTCODES_FILE].every((f) => sha(join(work, f)) === sha(join(build, f)));
    runs.push({ ms, same_bytes: same });
    log(`run ${run}: ${ms} ms, the build's bytes: ${same}`);
  } finally {
    conn.closeSync();
    db.closeSync();
    rmSync(work, { recursive: true, force: true });
  }
}
const result = {
  bench: 'sale-evidence', command: `npx tsx bench/sale-evidence.ts ${process.argv.slice(2).join(' ')}`.trim(), when: new Date().toISOString(), commit: gitCommit(),
  data: DATA, sales, runs, median_ms: median(runs.map((r) => r.ms)), peak_rss_mb_process: Math.round(process.resourceUsage().maxRSS / 1024),
  machine: { ...describeMachine(), load_average_before: loadBefore, load_average_after: loadAverage() },
};
writeFileSync(join(import.meta.dirname, 'results', `sale-evidence-${basename(resolve(DATA))}.json`), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify({ median_ms: result.median_ms, runs, peak_rss_mb_process: result.peak_rss_mb_process }));
