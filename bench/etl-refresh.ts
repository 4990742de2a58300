/**
 * An incremental refresh against a full build, at a given scale.
 *   npx tsx bench/etl-refresh.ts [--addresses N] [--seed S] [--rounds R]
 * Uses the region bench/etl.ts generates (data/bench/region-<N>-<S>, generated if absent),
 * linked file by file into a temp sources folder whose Price Paid monthly update is a copy.
 * Each round, in a fresh DATA_DIR: a full build (empty cache), then the monthly update gains
 * 1% of the bulk file's sales as new `A` records, then a build with the cache (the refresh).
 * Each build runs in a child process. Writes bench/results/etl-refresh-<N>.json: per round
 * both wall and CPU times and per-stage times, the refresh's share of the full build (of each).
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, linkSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureRegion } from './support/bench-build.ts';
import { buildInChild, ROOT as root, serveChildBuild } from './support/etl-build.ts';

const { values } = parseArgs({
  options: {
    addresses: { type: 'string', default: '100000' }, seed: { type: 'string', default: '42' }, rounds: { type: 'string', default: '1' },
    child: { type: 'string' }, data: { type: 'string' },
  },
});
const addresses = Number(values.addresses);
const seed = Number(values.seed);
const UPDATE = join('ppd', 'pp-monthly-update.csv');

await serveChildBuild(values);
const region = await ensureRegion(addresses, seed);

/** The region's files hard-linked into `to`, the monthly update copied so it can change. */
function linkRegion(to: string): void {
  const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
  for (const f of walk(region)) {
    const rel = relative(region, f);
    mkdirSync(dirname(join(to, rel)), { recursive: true });
    (rel === UPDATE ? copyFileSync : linkSync)(f, join(to, rel));
  }
}

/** Appends 1% of the bulk file's sales, under new transaction ids, as `A` records. */
function addMonth(sources: string): number {
  const bulk = readFileSync(join(sources, 'ppd', 'pp-complete.csv'), 'utf8').trim().split('\n');
  const picked = bulk.filter((_, i) => i % 100 === 7);
  const lines = picked.map((l, i) => {
    const f = l.split('","');
    f[0] = `"{BE0C0000-0000-0000-0000-${String(i).padStart(12, '0')}}`;
    f[2] = '2025-09-15 00:00';
    f[15] = 'A"';
    return f.join('","');
  });
  appendFileSync(join(sources, UPDATE), lines.join('\n') + '\n');
  return lines.length;
}

const build = (sources: string, dataDir: string) => buildInChild('bench/etl-refresh.ts', sources, dataDir);

const s1 = (x: number) => Math.round(x * 10) / 10;
const rounds = [];
for (let i = 0; i < Number(values.rounds); i++) {
  const work = mkdtempSync(join(tmpdir(), `etl-refresh-${addresses}-`));
  try {
    const sources = join(work, 'sources');
    linkRegion(sources);
    const load = loadavg()[0];
    const full = build(sources, join(work, 'data'));
    const added = addMonth(sources);
    const refresh = build(sources, join(work, 'data'));
    const cacheMb = Number(spawnSync('du', ['-sm', join(work, 'data', 'cache')], { encoding: 'utf8' }).stdout.split('\t')[0]);
    const round = {
      load_avg_1m_before: s1(load ?? 0), added_sales: added,
      full: {
        wall_s: s1(full.wall), cpu_s: s1(full.cpu), peak_rss_mb: Math.round(full.maxRssKb / 1024), peak_rss_mb_after_stage: full.peakMbAfterStage, stages_ms: full.manifest.stage_timings_ms,
        stage_cache: full.manifest.quality.stage_cache, match_cache: full.manifest.quality.match_cache,
        stage_output_cache: full.manifest.quality.stage_output_cache,
      },
      refresh: {
        wall_s: s1(refresh.wall), cpu_s: s1(refresh.cpu), peak_rss_mb: Math.round(refresh.maxRssKb / 1024), peak_rss_mb_after_stage: refresh.peakMbAfterStage, stages_ms: refresh.manifest.stage_timings_ms,
        stage_cache: refresh.manifest.quality.stage_cache, match_cache: refresh.manifest.quality.match_cache,
        stage_output_cache: refresh.manifest.quality.stage_output_cache,
      },
      refresh_share: Math.round((refresh.wall / full.wall) * 1000) / 1000,
      // CPU seconds (the build's own, every thread): less moved by other work on a busy machine than wall time.
      refresh_cpu_share: Math.round((refresh.cpu / full.cpu) * 1000) / 1000,
      cache_mb: cacheMb,
    };
    rounds.push(round);
    process.stdout.write(`round ${i + 1}: full ${round.full.wall_s} s, refresh ${round.refresh.wall_s} s (${(round.refresh_share * 100).toFixed(1)}%), CPU ${round.full.cpu_s} s, ${round.refresh.cpu_s} s (${(round.refresh_cpu_share * 100).toFixed(1)}%), load ${round.load_avg_1m_before}, cache ${cacheMb} MB\n`);
    for (const [k, v] of Object.entries(round.full.stages_ms)) {
      process.stdout.write(`  ${k.padEnd(22)} ${(v / 1000).toFixed(1).padStart(7)} s  ${((round.refresh.stages_ms[k] ?? 0) / 1000).toFixed(1).padStart(7)} s\n`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
const result = { addresses, seed, when: new Date().toISOString(), machine: { cpus: cpus().length, model: cpus()[0]?.model }, rounds };
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', `etl-refresh-${addresses}.json`), JSON.stringify(result, null, 2) + '\n');
