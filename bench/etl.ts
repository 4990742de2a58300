/**
 * ETL throughput and peak memory at a given scale.
 *   npx tsx bench/etl.ts [--addresses N] [--seed S] [--staging native|ts] [--keep]
 * Generates the synthetic region once into data/bench/region-<N>-<S> (reused by later runs),
 * runs one build in a child process (so peak RSS is the build's own) into a temporary
 * DATA_DIR (removed after, unless `--keep`: then its path is printed, to study the
 * build's own tables and caches), and writes bench/results/etl-<N>.json: per stage its time, and for staging the
 * source rows per second; the whole build's wall time and peak RSS. `--staging` sets the
 * child's ETL_STAGING (which path stages the bulk formats) and suffixes the results file.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureRegion } from './support/bench-build.ts';
import { buildInChild, ROOT as root, serveChildBuild } from './support/etl-build.ts';

const { values } = parseArgs({
  options: { addresses: { type: 'string', default: '100000' }, seed: { type: 'string', default: '42' }, child: { type: 'string' }, data: { type: 'string' }, staging: { type: 'string' }, keep: { type: 'boolean', default: false } },
});
const addresses = Number(values.addresses);
const seed = Number(values.seed);
await serveChildBuild(values);

const region = await ensureRegion(addresses, seed);
const dataDir = mkdtempSync(join(tmpdir(), `etl-bench-${addresses}-`));
let built;
try {
  built = buildInChild('bench/etl.ts', region, dataDir, values.staging ? { ...process.env, ETL_STAGING: values.staging } : process.env);
} catch (e) {
  // process.exit skips the finally below: remove the failed build's folder (GBs at 10M) first.
  if (values.keep) process.stderr.write(`build folder kept: ${dataDir}\n`);
  else rmSync(dataDir, { recursive: true, force: true });
  process.stderr.write(`${(e as Error).message}\n`);
  process.exit(1);
} finally {
  if (values.keep) process.stderr.write(`build folder kept: ${dataDir}\n`);
  else rmSync(dataDir, { recursive: true, force: true });
}
const { wall, cpu, maxRssKb, peakMbAfterStage, disk, manifest } = built;
const sourceRows = manifest.sources.reduce((n, s) => n + s.rows_read + s.rows_rejected, 0);
const stageMs = manifest.stage_timings_ms;
const result = {
  addresses, seed, staging: values.staging ?? process.env.ETL_STAGING ?? 'native', when: new Date().toISOString(), machine: { cpus: cpus().length, model: cpus()[0]?.model, load_avg_1m: loadavg()[0] },
  allocator: (manifest.quality.runtime as { allocator?: string } | undefined)?.allocator,
  wall_s: Math.round(wall * 10) / 10, cpu_s: Math.round(cpu * 10) / 10, peak_rss_mb: Math.round(maxRssKb / 1024),
  source_rows: sourceRows,
  source_rows_per_s_staging: Math.round(sourceRows / ((stageMs.stage_sources ?? 1) / 1000)),
  source_rows_per_s_overall: Math.round(sourceRows / wall),
  stages_ms: stageMs,
  // The child's peak RSS so far at each stage's end: where it rises is the stage that made the peak.
  peak_rss_mb_after_stage: peakMbAfterStage,
  disk_peak_mb_by_stage: built.diskPeakMbByStage,
  disk,
  tables: Object.fromEntries(Object.entries(manifest.tables).map(([k, v]) => [k, v.rows])),
  sources: manifest.sources.map((s) => ({ path: s.path, as_of: s.as_of, rows_read: s.rows_read, rejected_by_reason: s.rejected_by_reason })),
  match_rates: manifest.match_rates,
};
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', `etl-${addresses}${values.staging ? `-${values.staging}` : ''}.json`), JSON.stringify(result, null, 2) + '\n');
process.stdout.write(`${addresses} addresses (${result.staging} staging, ${result.allocator}): ${result.wall_s} s, peak ${result.peak_rss_mb} MB, ${sourceRows} source rows, ` +
  `${result.source_rows_per_s_staging} rows/s staging, ${result.source_rows_per_s_overall} rows/s overall\n`);
for (const [k, v] of Object.entries(stageMs)) process.stdout.write(`  ${k.padEnd(16)} ${(v / 1000).toFixed(1)} s\n`);
