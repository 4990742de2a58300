/**
 * What releasing the DuckDB store after the warm-up saves (ADR 0015, step 1): the production
 * server (bench/support/server-process.ts, as `npm start` runs it) over the bench build, its RSS
 * after the "build warmed" line with the store released (the default) and with KEEP_STORE_OPEN=1,
 * the two alternated within each run (the order swapped run to run), medians over the runs and
 * the saving measured within each run.
 *
 *   node --import tsx bench/store-release.ts --addresses 1000000 --runs 3 [--settle 5]
 *
 * Writes bench/results/store-release-<addresses>.json.
 */
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from '../test/support/tmp.ts';
import { ensureBenchBuild } from './support/bench-build.ts';
import { describeMachine, gitCommit, loadAverage } from './support/machine.ts';
import { memory } from './support/proc.ts';
import { startServerProcess } from './support/server-process.ts';
import { arg, mb, median } from './support/stats.ts';

const ROOT = resolve(import.meta.dirname, '..');
const ADDRESSES = arg('addresses', 1_000_000);
const RUNS = arg('runs', 3);
/** Seconds between the "build warmed" line and the RSS reading (the allocator returns pages late). */
const SETTLE_S = arg('settle', 5);
const log = (msg: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);
const command = `node --import tsx bench/store-release.ts ${process.argv.slice(2).join(' ')}`.trim();

type Mode = 'released' | 'kept_open';
interface Sample { mode: Mode; run: number; rss_listening_mb: number; rss_warmed_mb: number; rss_settled_mb: number; warm_ms: number; store_released: unknown; store_gauge: string | null; load_average: number[] }

async function measure(dataDir: string, mode: Mode, run: number): Promise<Sample> {
  const load = loadAverage();
  const server = await startServerProcess({ dataDir, env: mode === 'kept_open' ? { KEEP_STORE_OPEN: '1' } : {} });
  try {
    const listening = memory(server.pid).rss;
    const warmed = await server.waitFor((l) => l.msg === 'build warmed', 15 * 60_000, true);
    const atWarm = memory(server.pid).rss;
    await new Promise((r) => setTimeout(r, SETTLE_S * 1000));
    const settled = memory(server.pid).rss;
    const metrics = await (await fetch(`${server.metricsUrl}/metrics`)).text();
    const sample: Sample = {
      mode, run, rss_listening_mb: mb(listening), rss_warmed_mb: mb(atWarm), rss_settled_mb: mb(settled), warm_ms: Number(warmed.ms),
      store_released: warmed.store_released, store_gauge: /^data_store_open (\d+)$/m.exec(metrics)?.[1] ?? null, load_average: load,
    };
    log(`run ${run} ${mode}: ${JSON.stringify(sample)}`);
    return sample;
  } finally {
    await server.stop();
  }
}

const bb = await ensureBenchBuild(ADDRESSES, 42, log);
const tmp = tempDir('pi-store-release-');
const dataDir = join(tmp.dir, 'data');
mkdirSync(dataDir, { recursive: true });
symlinkSync(realpathSync(bb.buildDir), join(dataDir, 'current'));
const when = new Date().toISOString();
const loadStart = loadAverage();
const samples: Sample[] = [];
try {
  for (let run = 1; run <= RUNS; run++) {
    const order: Mode[] = run % 2 === 1 ? ['released', 'kept_open'] : ['kept_open', 'released'];
    for (const mode of order) samples.push(await measure(dataDir, mode, run));
  }
} finally {
  tmp.cleanup();
}
const of = (mode: Mode, key: 'rss_settled_mb' | 'rss_warmed_mb' | 'warm_ms' | 'rss_listening_mb') => samples.filter((s) => s.mode === mode).map((s) => s[key]);
const savedPerRun = Array.from({ length: RUNS }, (_, i) => {
  const run = samples.filter((s) => s.run === i + 1);
  return run.find((s) => s.mode === 'kept_open')!.rss_settled_mb - run.find((s) => s.mode === 'released')!.rss_settled_mb;
});
const result = {
  bench: 'store-release', command, when, commit: gitCommit(), machine: describeMachine(), load_average_start: loadStart, load_average_end: loadAverage(),
  addresses: ADDRESSES, build_dir: bb.buildDir, runs: RUNS, settle_s: SETTLE_S,
  median: {
    released: { rss_settled_mb: median(of('released', 'rss_settled_mb')), rss_warmed_mb: median(of('released', 'rss_warmed_mb')), rss_listening_mb: median(of('released', 'rss_listening_mb')), warm_ms: median(of('released', 'warm_ms')) },
    kept_open: { rss_settled_mb: median(of('kept_open', 'rss_settled_mb')), rss_warmed_mb: median(of('kept_open', 'rss_warmed_mb')), rss_listening_mb: median(of('kept_open', 'rss_listening_mb')), warm_ms: median(of('kept_open', 'warm_ms')) },
    saved_mb_within_run: median(savedPerRun),
  },
  saved_mb_per_run: savedPerRun,
  samples,
};
const out = join(ROOT, 'bench', 'results', `store-release-${ADDRESSES}.json`);
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
log(`wrote ${out}: ${JSON.stringify(result.median)}`);
