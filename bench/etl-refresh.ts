/**
 * An incremental refresh against a full build, at a given scale.
 *   npx tsx bench/etl-refresh.ts [--addresses N] [--seed S] [--rounds R]
 * Uses the region bench/etl.ts generates (data/bench/region-<N>-<S>, generated if absent),
 * linked file by file into a temp sources folder whose Price Paid monthly update is a copy.
 * Each round, in a fresh DATA_DIR: a full build (empty cache), then the monthly update gains
 * 1% of the bulk file's sales as new `A` records, then a build with the cache (the refresh).
 * Each build runs in a child process. Writes bench/results/etl-refresh-<N>.json: per round
 * both wall times and per-stage times, the refresh's share of the full build.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Manifest } from '../schemas/manifest.ts';
import { runBuild } from '../etl/pipeline/run.ts';
import { generateRegion } from '../etl/synth/generate.ts';

const { values } = parseArgs({
  options: {
    addresses: { type: 'string', default: '100000' }, seed: { type: 'string', default: '42' }, rounds: { type: 'string', default: '1' },
    child: { type: 'string' }, data: { type: 'string' },
  },
});
const addresses = Number(values.addresses);
const seed = Number(values.seed);
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const UPDATE = join('ppd', 'pp-monthly-update.csv');

if (values.child && values.data) {
  const t0 = performance.now();
  const { manifest } = await runBuild({ dataDir: values.data, sourcesDir: values.child, log: quiet });
  const ru = process.resourceUsage();
  process.stdout.write(JSON.stringify({ wall: (performance.now() - t0) / 1000, maxRssKb: ru.maxRSS, manifest }));
  process.exit(0);
}

const root = resolve(import.meta.dirname, '..');
const region = join(root, 'data', 'bench', `region-${addresses}-${seed}`);
if (!existsSync(join(region, 'manifest.json'))) {
  process.stderr.write(`generating ${addresses} addresses into ${region} …\n`);
  mkdirSync(region, { recursive: true });
  await generateRegion({ out: region, addresses, seed });
}

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

function build(sources: string, dataDir: string): { wall: number; maxRssKb: number; manifest: Manifest } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench/etl-refresh.ts'), '--child', sources, '--data', dataDir], {
    cwd: root, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`build failed (exit ${r.status})`);
  return JSON.parse(r.stdout) as { wall: number; maxRssKb: number; manifest: Manifest };
}

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
        wall_s: s1(full.wall), peak_rss_mb: Math.round(full.maxRssKb / 1024), stages_ms: full.manifest.stage_timings_ms,
        stage_cache: full.manifest.quality.stage_cache, match_cache: full.manifest.quality.match_cache,
      },
      refresh: {
        wall_s: s1(refresh.wall), peak_rss_mb: Math.round(refresh.maxRssKb / 1024), stages_ms: refresh.manifest.stage_timings_ms,
        stage_cache: refresh.manifest.quality.stage_cache, match_cache: refresh.manifest.quality.match_cache,
      },
      refresh_share: Math.round((refresh.wall / full.wall) * 1000) / 1000,
      cache_mb: cacheMb,
    };
    rounds.push(round);
    process.stdout.write(`round ${i + 1}: full ${round.full.wall_s} s, refresh ${round.refresh.wall_s} s (${(round.refresh_share * 100).toFixed(1)}%), load ${round.load_avg_1m_before}, cache ${cacheMb} MB\n`);
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
