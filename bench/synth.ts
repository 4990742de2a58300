/**
 * Throughput and peak memory of the synthetic region generator.
 *   npx tsx bench/synth.ts [--addresses N] [--seed S] [--mix demo|national] [--zip] [--keep]
 * Runs the generator in a child process (so peak RSS is the generator's own), into a
 * temporary folder, and writes bench/results/synth-<N>.json (`-national`, `-zip` appended for those options).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generateRegion } from '../etl/synth/generate.ts';
import type { Mix } from '../etl/synth/params.ts';

const { values } = parseArgs({
  options: {
    addresses: { type: 'string', default: '1000000' },
    seed: { type: 'string', default: '42' },
    child: { type: 'string' },
    keep: { type: 'boolean', default: false },
    mix: { type: 'string', default: 'demo' },
    zip: { type: 'boolean', default: false },
  },
});
const addresses = Number(values.addresses);
const seed = Number(values.seed);
if (!Number.isInteger(addresses) || addresses < 1 || !Number.isInteger(seed) || seed < 0) {
  process.stderr.write('usage: npx tsx bench/synth.ts [--addresses N] [--seed S] [--mix demo|national] [--zip] [--keep]\n');
  process.exit(2);
}

if (values.child) {
  // Child: generate and report files, wall time, CPU time and peak RSS as JSON on stdout.
  const t0 = performance.now();
  const { files } = await generateRegion({ out: values.child, addresses, seed, mix: values.mix as Mix, zip: values.zip });
  const wall = (performance.now() - t0) / 1000;
  const ru = process.resourceUsage();
  process.stdout.write(JSON.stringify({ wall, cpu: (ru.userCPUTime + ru.systemCPUTime) / 1e6, maxRssKb: ru.maxRSS, files }));
  process.exit(0);
}

const root = resolve(import.meta.dirname, '..');
const out = mkdtempSync(join(tmpdir(), `synth-bench-${addresses}-`));
const t0 = performance.now();
const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench/synth.ts'), '--addresses', String(addresses), '--seed', String(seed), '--mix', values.mix,
  ...(values.zip ? ['--zip'] : []), '--child', out], {
  cwd: root,
  encoding: 'utf8',
  maxBuffer: 1 << 26,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const processWall = (performance.now() - t0) / 1000;
if (!values.keep) rmSync(out, { recursive: true, force: true });
if (r.status !== 0) {
  process.stderr.write(`generator failed with status ${r.status}\n`);
  process.exit(1);
}
const child = JSON.parse(r.stdout) as { wall: number; cpu: number; maxRssKb: number; files: { file: string; rows: number; bytes: number }[] };
const rows = child.files.reduce((a, f) => a + f.rows, 0);
const bytes = child.files.reduce((a, f) => a + f.bytes, 0);
const result = {
  bench: 'synth',
  addresses,
  seed,
  mix: values.mix,
  zip: values.zip,
  wall_s: Math.round(child.wall * 10) / 10,
  process_wall_s: Math.round(processWall * 10) / 10,
  cpu_s: Math.round(child.cpu * 10) / 10,
  rows_total: rows,
  rows_per_s: Math.round(rows / child.wall),
  // Steadier than wall time on a shared machine: the generator is single-threaded.
  rows_per_cpu_s: Math.round(rows / child.cpu),
  addresses_per_s: Math.round(addresses / child.wall),
  bytes_total: bytes,
  mb_per_s: Math.round((bytes / 1e6 / child.wall) * 10) / 10,
  peak_rss_mb: Math.round(child.maxRssKb / 1024),
  files: child.files.map((f) => ({ file: f.file, rows: f.rows, bytes: f.bytes, rows_per_s: Math.round(f.rows / child.wall) })),
  machine: { node: process.version, cpus: cpus().length, cpu_model: cpus()[0]?.model ?? '', load_avg_1m_at_end: Math.round(loadavg()[0]! * 10) / 10 },
};
mkdirSync(join(root, 'bench/results'), { recursive: true });
const file = join(root, `bench/results/synth-${addresses}${values.mix === 'national' ? '-national' : ''}${values.zip ? '-zip' : ''}.json`);
writeFileSync(file, JSON.stringify(result, null, 2) + '\n');
process.stdout.write(
  `synth ${addresses} addresses: ${result.wall_s} s wall (${result.cpu_s} s CPU), ${rows} rows at ${result.rows_per_s} rows/s ` +
    `(${result.rows_per_cpu_s} per CPU-second), ` +
    `${(bytes / 1e6).toFixed(0)} MB, peak RSS ${result.peak_rss_mb} MB → ${file}\n`,
);
for (const f of result.files) process.stdout.write(`  ${f.file.padEnd(42)} ${String(f.rows).padStart(11)} rows ${String(f.rows_per_s).padStart(9)} rows/s\n`);
