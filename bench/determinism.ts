/**
 * Do two builds of the same sources publish the same content?
 *   npx tsx bench/determinism.ts [--addresses N] [--seed S] [--keep]
 * Builds the synthetic region (data/bench/region-<N>-<S>, generated once) twice, each in a child
 * process into its own empty temporary DATA_DIR with the caches off and the same build clock,
 * then compares every published Parquet table (row counts, and `EXCEPT ALL` both ways: equal
 * multisets of rows, floats compared bit for bit; for a table that differs, which columns and a
 * few rows) and every artifact's SHA-256. Writes bench/results/determinism-<N>.json and exits 1
 * when anything differs. Small regions (under ~122,880 rows a table) aggregate single-threaded
 * in DuckDB and hide order-dependent results; run it at 300,000 (`nice -n 19`).
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import type { Manifest } from '../schemas/manifest.ts';
import { runBuild } from '../etl/pipeline/run.ts';
import { ensureRegion } from './support/bench-build.ts';
import { ROOT } from './support/etl-build.ts';

const { values } = parseArgs({
  options: {
    addresses: { type: 'string', default: '300000' }, seed: { type: 'string', default: '42' }, keep: { type: 'boolean' },
    child: { type: 'string' }, data: { type: 'string' }, now: { type: 'string' },
  },
});

// Child: one build with the caches off, at the parent's clock, then exit.
if (values.child && values.data && values.now) {
  const quiet = { info: () => undefined, warn: () => undefined, error: (o: object, m?: string) => process.stderr.write(`${m ?? ''} ${JSON.stringify(o)}\n`) };
  await runBuild({ dataDir: values.data, sourcesDir: values.child, log: quiet, cache: false, now: new Date(values.now) });
  process.exit(0);
}

const addresses = Number(values.addresses);
const seed = Number(values.seed);
const region = await ensureRegion(addresses, seed);
const now = new Date().toISOString();

function build(dataDir: string): { dir: string; wall_s: number } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/determinism.ts'), '--child', region, '--data', dataDir, '--now', now], {
    cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`build into ${dataDir} failed (exit ${r.status})`);
  return { dir: join(dataDir, 'current'), wall_s: Math.round((performance.now() - t0) / 100) / 10 };
}

function sha256(file: string): Promise<string> {
  return new Promise((res, rej) => {
    const h = createHash('sha256');
    createReadStream(file).on('data', (c) => h.update(c)).on('end', () => res(h.digest('hex'))).on('error', rej);
  });
}

interface TableDiff { table: string; rows: [number, number]; only_in_a: number; only_in_b: number; columns?: string[]; sample_a?: unknown[]; sample_b?: unknown[] }

const dirs = [mkdtempSync(join(tmpdir(), 'determinism-a-')), mkdtempSync(join(tmpdir(), 'determinism-b-'))];
let exitCode = 0;
try {
  const builds = dirs.map((d, i): { dir: string; wall_s: number } => {
    process.stderr.write(`build ${i === 0 ? 'a' : 'b'} of ${region} into ${d} …\n`);
    return build(d);
  }) as [{ dir: string; wall_s: number }, { dir: string; wall_s: number }];
  const [a, b] = builds.map((x) => JSON.parse(readFileSync(join(x.dir, 'manifest.json'), 'utf8')) as Manifest) as [Manifest, Manifest];
  const db = await DuckDBInstance.create(':memory:', { threads: '1', memory_limit: '2GB' });
  const conn = await db.connect();
  const one = async (sql: string) => Number((await (await conn.runAndReadAll(sql)).getRowObjectsJson())[0]?.n ?? 0);
  const rows = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJson();

  const tables: TableDiff[] = [];
  const names = [...new Set([...Object.keys(a.tables), ...Object.keys(b.tables)])].sort();
  for (const name of names) {
    const [ta, tb] = [a.tables[name], b.tables[name]];
    if (!ta || !tb) { tables.push({ table: name, rows: [ta?.rows ?? -1, tb?.rows ?? -1], only_in_a: ta?.rows ?? 0, only_in_b: tb?.rows ?? 0 }); continue; }
    const [fa, fb] = [join(builds[0].dir, ta.file), join(builds[1].dir, tb.file)].map((f) => `read_parquet('${f.replaceAll("'", "''")}')`);
    const onlyA = await one(`SELECT count(*) AS n FROM (SELECT * FROM ${fa} EXCEPT ALL SELECT * FROM ${fb})`);
    const onlyB = await one(`SELECT count(*) AS n FROM (SELECT * FROM ${fb} EXCEPT ALL SELECT * FROM ${fa})`);
    const d: TableDiff = { table: name, rows: [ta.rows, tb.rows], only_in_a: onlyA, only_in_b: onlyB };
    if (onlyA + onlyB > 0) {
      const cols = (await rows(`SELECT column_name FROM (DESCRIBE SELECT * FROM ${fa})`)).map((r) => String(r.column_name));
      d.columns = [];
      for (const c of cols) {
        const q = `"${c.replaceAll('"', '""')}"`;
        const n = await one(`SELECT count(*) AS n FROM (SELECT ${q} FROM ${fa} EXCEPT ALL SELECT ${q} FROM ${fb})`);
        if (n > 0) d.columns.push(`${c} (${n})`);
      }
      const order = ta.sort_key.map((k) => `"${k}"`).join(', ');
      d.sample_a = await rows(`SELECT * FROM (SELECT * FROM ${fa} EXCEPT ALL SELECT * FROM ${fb}) ORDER BY ${order} LIMIT 3`);
      d.sample_b = await rows(`SELECT * FROM (SELECT * FROM ${fb} EXCEPT ALL SELECT * FROM ${fa}) ORDER BY ${order} LIMIT 3`);
    }
    tables.push(d);
  }
  conn.closeSync();

  const artifacts: { artifact: string; file: string; same: boolean }[] = [];
  for (const name of [...new Set([...Object.keys(a.artifacts), ...Object.keys(b.artifacts)])].sort()) {
    const [xa, xb] = [a.artifacts[name], b.artifacts[name]];
    const fa = xa && join(builds[0].dir, xa.file);
    const fb = xb && join(builds[1].dir, xb.file);
    const same = !!fa && !!fb && existsSync(fa) && existsSync(fb) && (await sha256(fa)) === (await sha256(fb));
    artifacts.push({ artifact: name, file: xa?.file ?? xb?.file ?? '', same });
  }

  const differ = tables.filter((t) => t.rows[0] !== t.rows[1] || t.only_in_a + t.only_in_b > 0);
  const artifactsDiffer = artifacts.filter((x) => !x.same);
  const result = {
    addresses, seed, when: new Date().toISOString(), build_clock: now,
    machine: { cpus: cpus().length, model: cpus()[0]?.model, load_avg_1m: loadavg()[0] },
    builds_wall_s: builds.map((x) => x.wall_s),
    tables_compared: tables.length, artifacts_compared: artifacts.length,
    tables_differ: differ.map((t) => t.table), artifacts_differ: artifactsDiffer.map((x) => x.artifact),
    tables: differ, artifacts,
  };
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  const out = join(ROOT, 'bench', 'results', `determinism-${addresses}.json`);
  writeFileSync(out, JSON.stringify(result, (_k, v) => (typeof v === 'bigint' ? v.toString() : v), 2) + '\n');
  process.stdout.write(`${addresses} addresses, builds ${result.builds_wall_s.join(' s, ')} s: ${tables.length} tables, ${artifacts.length} artifacts compared\n`);
  for (const t of differ) process.stdout.write(`  table ${t.table}: rows ${t.rows.join(' vs ')}, ${t.only_in_a} rows only in a, ${t.only_in_b} only in b; columns ${t.columns?.join(', ') ?? '-'}\n`);
  for (const x of artifactsDiffer) process.stdout.write(`  artifact ${x.artifact} (${x.file}): SHA-256 differs\n`);
  process.stdout.write(differ.length + artifactsDiffer.length === 0 ? 'identical\n' : `DIFFER (details in ${out})\n`);
  exitCode = differ.length + artifactsDiffer.length === 0 ? 0 : 1;
} finally {
  if (values.keep) process.stderr.write(`kept ${dirs.join(' and ')}\n`);
  else for (const d of dirs) rmSync(d, { recursive: true, force: true });
}
process.exit(exitCode);
