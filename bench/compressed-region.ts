/**
 * The synthetic region written plain against the same region with its zip-shipped sources
 * zipped (issue 46), side by side in one run, alternating which goes first:
 *   npx tsx bench/compressed-region.ts [--addresses N] [--runs R] [--seed S] [--mix demo|national] [--no-etl] [--plain-region DIR]
 * Per run and variant: the generator in a child process (wall, CPU, peak RSS), the bytes on
 * disk (sources, and the truth beside them), then one ETL build of each region in a child
 * process (wall, CPU, peak RSS; the tables' row counts must agree). Writes
 * bench/results/compressed-region-<N>.json with the medians and the zip/plain ratios.
 * `--plain-region DIR`: the plain side is that region, already written by the same code
 * (data/bench/region-N-S), and is not generated again (a long run at 1M: the generator's
 * plain/zip ratio then comes from the smaller runs).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateRegion } from '../etl/synth/generate.ts';
import type { Mix } from '../etl/synth/params.ts';
import { buildInChild, ROOT, serveChildBuild } from './support/etl-build.ts';

const { values } = parseArgs({
  options: {
    addresses: { type: 'string', default: '100000' }, seed: { type: 'string', default: '42' }, runs: { type: 'string', default: '1' },
    mix: { type: 'string', default: 'demo' }, 'no-etl': { type: 'boolean', default: false }, zip: { type: 'boolean', default: false },
    'gen-child': { type: 'string' }, child: { type: 'string' }, data: { type: 'string' }, 'plain-region': { type: 'string' },
  },
});
const addresses = Number(values.addresses);
const seed = Number(values.seed);
const runs = Number(values.runs);
const mix = values.mix as Mix;
await serveChildBuild(values);

if (values['gen-child']) {
  const t0 = performance.now();
  await generateRegion({ out: values['gen-child'], addresses, seed, mix, zip: values.zip });
  const ru = process.resourceUsage();
  process.stdout.write(JSON.stringify({ wall: (performance.now() - t0) / 1000, cpu: (ru.userCPUTime + ru.systemCPUTime) / 1e6, maxRssKb: ru.maxRSS }));
  process.exit(0);
}

type Variant = 'plain' | 'zip';
interface Run {
  variant: Variant;
  generator?: { wall_s: number; cpu_s: number; peak_rss_mb: number };
  bytes: { sources: number; truth: number };
  etl?: { wall_s: number; cpu_s: number; peak_rss_mb: number; build_bytes: number; tables: Record<string, number> };
}

const r1 = (x: number) => Math.round(x * 10) / 10;
const duBytes = (path: string) => Number(execFileSync('du', ['-sbL', path], { encoding: 'utf8' }).split('\t')[0]);

function generate(variant: Variant, out: string): Run['generator'] {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/compressed-region.ts'), '--gen-child', out, '--addresses', String(addresses),
    '--seed', String(seed), '--mix', mix, ...(variant === 'zip' ? ['--zip'] : [])], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`generator (${variant}) failed with status ${r.status}`);
  const c = JSON.parse(r.stdout) as { wall: number; cpu: number; maxRssKb: number };
  return { wall_s: r1(c.wall), cpu_s: r1(c.cpu), peak_rss_mb: Math.round(c.maxRssKb / 1024) };
}

const all: Run[] = [];
for (let i = 0; i < runs; i++) {
  const order: Variant[] = i % 2 === 0 ? ['plain', 'zip'] : ['zip', 'plain'];
  const regions = new Map<Variant, string>();
  const done = new Map<Variant, Run>();
  try {
    for (const v of order) {
      const given = v === 'plain' ? values['plain-region'] : undefined;
      const out = given ?? mkdtempSync(join(tmpdir(), `region-${v}-${addresses}-`));
      if (!given) regions.set(v, out);
      const generator = given ? undefined : generate(v, out);
      const truth = duBytes(join(out, 'truth'));
      // -L: a region folder of symlinks counts the files it points to.
      done.set(v, { variant: v, ...(generator ? { generator } : {}), bytes: { sources: duBytes(out) - truth, truth } });
      process.stderr.write(`run ${i + 1} ${v}: ${generator ? `generated in ${generator.wall_s} s (${generator.cpu_s} s CPU, peak ${generator.peak_rss_mb} MB)` : `given (${out})`}, sources ${(done.get(v)!.bytes.sources / 1e6).toFixed(0)} MB\n`);
    }
    if (!values['no-etl']) {
      for (const v of order) {
        const dataDir = mkdtempSync(join(tmpdir(), `etl-${v}-${addresses}-`));
        try {
          const b = buildInChild('bench/compressed-region.ts', regions.get(v) ?? values['plain-region']!, dataDir);
          done.get(v)!.etl = {
            wall_s: r1(b.wall), cpu_s: r1(b.cpu), peak_rss_mb: Math.round(b.maxRssKb / 1024), build_bytes: duBytes(join(dataDir, 'current') + '/'),
            tables: Object.fromEntries(Object.entries(b.manifest.tables).map(([k, t]) => [k, t.rows])),
          };
          process.stderr.write(`run ${i + 1} ${v}: built in ${done.get(v)!.etl!.wall_s} s, peak ${done.get(v)!.etl!.peak_rss_mb} MB\n`);
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
        }
      }
      const [a, b] = [done.get('plain')!.etl!.tables, done.get('zip')!.etl!.tables];
      if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`run ${i + 1}: the zipped region built other row counts: ${JSON.stringify({ plain: a, zip: b })}`);
    }
  } finally {
    for (const dir of regions.values()) rmSync(dir, { recursive: true, force: true });
  }
  all.push(...order.map((v) => done.get(v)!));
}

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2; };
const of = (v: Variant) => all.filter((r) => r.variant === v);
const med = (v: Variant, f: (r: Run) => number | undefined) => { const xs = of(v).map(f).filter((x): x is number => x !== undefined); return xs.length ? median(xs) : undefined; };
const summary = (v: Variant) => ({
  generator_wall_s: med(v, (r) => r.generator?.wall_s), generator_cpu_s: med(v, (r) => r.generator?.cpu_s), generator_peak_rss_mb: med(v, (r) => r.generator?.peak_rss_mb),
  sources_bytes: med(v, (r) => r.bytes.sources), truth_bytes: med(v, (r) => r.bytes.truth),
  etl_wall_s: med(v, (r) => r.etl?.wall_s), etl_cpu_s: med(v, (r) => r.etl?.cpu_s), etl_peak_rss_mb: med(v, (r) => r.etl?.peak_rss_mb), build_bytes: med(v, (r) => r.etl?.build_bytes),
});
const plain = summary('plain');
const zip = summary('zip');
const ratio = (k: keyof typeof plain) => (plain[k] && zip[k] !== undefined ? Math.round((zip[k]! / plain[k]!) * 1000) / 1000 : undefined);
const result = {
  bench: 'compressed-region', addresses, seed, mix, runs, plain_region: values['plain-region'] ?? null, when: new Date().toISOString(),
  machine: { cpus: cpus().length, model: cpus()[0]?.model, load_avg_1m_at_end: r1(loadavg()[0]!) },
  median: { plain, zip },
  zip_over_plain: Object.fromEntries((Object.keys(plain) as (keyof typeof plain)[]).map((k) => [k, ratio(k)])),
  runs_detail: all.map(({ etl, ...r }) => ({ ...r, ...(etl ? { etl: { wall_s: etl.wall_s, cpu_s: etl.cpu_s, peak_rss_mb: etl.peak_rss_mb, build_bytes: etl.build_bytes } } : {}) })),
  tables: all[0]?.etl?.tables,
};
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
const file = join(ROOT, 'bench', 'results', `compressed-region-${addresses}${mix === 'national' ? '-national' : ''}.json`);
writeFileSync(file, JSON.stringify(result, null, 2) + '\n');
process.stdout.write(`${JSON.stringify({ median: result.median, zip_over_plain: result.zip_over_plain })}\nwrote ${file}\n`);
