/**
 * What each per-build resource of the service (service/build/resources.ts) costs in memory
 * once loaded, and how that grows with the region (issue 46, docs/scale.md "Serving memory").
 *
 *   node --expose-gc --import tsx bench/serving-memory.ts [--addresses 100000,1000000] [--runs 3] [--only store,records,all] [--seed 42] [--malloc system|jemalloc] [--lookups-in-heap | --areas-in-heap] [--str-in-heap] [--tag T]
 *
 * `--str-in-heap`: likewise a view without the STR market files (bench/support/str-in-heap.ts),
 * the market set loaded into the heap. `--tag T`: the results file suffixed `-T`.
 * `--lookups-in-heap`: the build as one published before the lookup files (a view of it whose
 * manifest lists none: bench/support/lookups-in-heap.ts), so the lookup tables are made in the
 * heap as before ADR 0015 step 2: the same data, the two ways of holding it. `--areas-in-heap`:
 * only the per-area tables' files left out, so those are made in the store and the heap as
 * before step 6 (the big keyed tables still read from their files).
 *
 * Each resource is loaded alone in a fresh child process (`node --expose-gc`): first the
 * resources it reads (DEPS below; a resource the load opens beyond them fails the run, so the
 * map cannot go stale silently), then a forced GC and a snapshot, then the resource, a forced
 * GC and a second snapshot. The deltas: V8 heap used, external (ArrayBuffers included; the
 * files read whole are there), ArrayBuffers alone, RSS (what the process holds, DuckDB's
 * native memory included), the peak RSS during the load (VmHWM reset before it), and DuckDB's
 * own accounting (`duckdb_memory()`, service/store/sql/duckdb_memory.sql) when the store is
 * open. One more child warms every resource together (`all`), as the warmer does: the check
 * that the parts add up; it then closes the store (no request path queries DuckDB: every
 * resource is built from it when it opens) and takes one more snapshot. Runs alternate: each run visits every resource once, in a rotated
 * order; the medians over `--runs` are reported.
 *
 * With two or more scales, each resource's slope (MB per million addresses, between the
 * smallest and the largest scale) and its projection to 30M homes per process and for
 * WORKERS=2 (each worker loads its own copy) go into the largest scale's file.
 * `--malloc jemalloc` runs the children under jemalloc as the ETL runs (scripts/with-jemalloc.sh):
 * how much of the RSS is glibc's malloc keeping what DuckDB's load-time queries freed.
 * Writes bench/results/serving-memory-<N>.json per scale (`-jemalloc`, `-only` suffixed). Runs on the bench builds
 * (data/bench/dd-<N>-<seed>, made when missing: bench/support/bench-build.ts).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AREA_LOOKUP_FILES } from '../lib/files/lookup-tables-format.ts';
import { Lazy } from '../service/build/lazy.ts';
import { BuildResources } from '../service/build/resources.ts';
import type { BuildInfo } from '../service/build/source.ts';
import type { BuildStore } from '../service/store/store.ts';
import { ensureBenchBuild } from './support/bench-build.ts';
import { lookupsInHeapView } from './support/lookups-in-heap.ts';
import { strInHeapView } from './support/str-in-heap.ts';
import { tempDir } from '../test/support/tmp.ts';
import { describeMachine, gitCommit, loadAverage } from './support/machine.ts';
import { arg, argStr, median, r2 } from './support/stats.ts';

const ROOT = resolve(import.meta.dirname, '..');
const MB = 1048576;

/** The resources each one's loader reads (service/build/resources.ts), loaded before it is measured. */
const DEPS: Record<string, string[]> = {
  store: [],
  searchIndex: [],
  records: [],
  saleValuer: ['store'],
  hmoValuer: ['store', 'records'],
  postcodePoints: ['store'],
  pointCountry: ['store'],
  rentLets: ['store'],
  rentalValuer: ['store', 'records', 'rentLets'],
  sqftSales: ['store'],
  gdvPremiums: ['store'],
  gdvValuer: ['store', 'sqftSales', 'gdvPremiums'],
  strListings: ['store'],
  strMarket: ['store'],
  strListingRows: ['store', 'strMarket'],
  designations: [],
  risks: ['records', 'designations'],
  lookups: ['store'],
  comparables: ['store', 'saleValuer'],
  planning: ['store', 'designations'],
  crime: ['store'],
  schools: ['store'],
  listings: ['store'],
  hmoLicences: ['store'],
  deals: ['store', 'listings', 'saleValuer'],
};
/** Every resource warmed together, in the warmer's order. */
const ALL = 'all';

interface Snapshot {
  heap_used: number;
  external: number;
  array_buffers: number;
  rss: number;
  /** RSS split (/proc/self/status): anonymous (the process's own) and file-backed (shared library code, mapped files: shared with other processes). */
  rss_anon: number;
  rss_file: number;
  /** Sum of duckdb_memory()'s memory_usage_bytes; 0 when the store is not open. */
  duckdb: number;
}

interface ChildResult {
  resource: string;
  name: string;
  deps: string[];
  load_ms: number;
  before: Snapshot;
  after: Snapshot;
  /** VmHWM after the load (reset to the RSS just before it). */
  peak_rss: number;
  duckdb_tags: Record<string, number>;
  /** `all` only: after closing the store once everything is warm (nothing on the request path queries DuckDB). */
  after_store_closed?: Snapshot;
}

const FIELDS = ['heap_used', 'external', 'array_buffers', 'rss', 'rss_anon', 'rss_file', 'duckdb'] as const;

function lazies(res: BuildResources): Map<string, Lazy<unknown>> {
  return new Map(Object.entries(res).filter((e): e is [string, Lazy<unknown>] => e[1] instanceof Lazy));
}

/** Three forced full collections with a pause between (finalisers and freed ArrayBuffers settle). */
async function settle(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  for (let k = 0; k < 3; k++) {
    gc();
    await new Promise((r) => setTimeout(r, 100));
  }
  // Under jemalloc, freed pages go back to the system after its decay time (1 s as the ETL runs it).
  const extra = Number(process.env.SERVING_MEMORY_SETTLE_MS ?? 0);
  if (extra > 0) await new Promise((r) => setTimeout(r, extra));
}

function statusKb(field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

async function duckdbTags(res: BuildResources, open: boolean): Promise<Record<string, number>> {
  if (!open) return {};
  const store = (await res.store.get()) as BuildStore;
  const rows = await store.rows('duckdb_memory');
  return Object.fromEntries(rows.map((r) => [r.tag, r.memory_usage_bytes]));
}

async function snapshot(res: BuildResources, storeOpen: boolean): Promise<{ snap: Snapshot; tags: Record<string, number> }> {
  const tags = await duckdbTags(res, storeOpen);
  await settle();
  const m = process.memoryUsage();
  const duckdb = Object.values(tags).reduce((a, b) => a + b, 0);
  return { snap: { heap_used: m.heapUsed, external: m.external, array_buffers: m.arrayBuffers, rss: m.rss, rss_anon: statusKb('RssAnon'), rss_file: statusKb('RssFile'), duckdb }, tags };
}

/** The child: loads `key`'s dependencies, then `key` alone (or every resource, for ALL), and prints the snapshots. */
async function child(buildDir: string, key: string): Promise<void> {
  const manifest = JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  const build: BuildInfo = { id: String(manifest.build_id), dir: buildDir, manifest };
  const res = new BuildResources(build);
  const all = lazies(res);
  const deps = key === ALL ? [] : DEPS[key];
  if (!deps || (key !== ALL && !all.has(key))) throw new Error(`no resource ${key} (DEPS and resources.ts must agree)`);
  for (const d of deps) await all.get(d)!.get();
  const storeOpenBefore = deps.includes('store');
  const { snap: before } = await snapshot(res, storeOpenBefore);
  // Resets VmHWM to the RSS now (Linux ≥ 4.0), so the peak is this load's.
  writeFileSync('/proc/self/clear_refs', '5');
  const t0 = performance.now();
  if (key === ALL) await res.warm((name, err) => process.stderr.write(`${name} failed: ${String(err)}\n`));
  else await all.get(key)!.get();
  const loadMs = performance.now() - t0;
  const peak = statusKb('VmHWM');
  if (key !== ALL) {
    const extra: string[] = [];
    for (const [k, r] of all) if (k !== key && !deps.includes(k) && (await r.isOpen())) extra.push(k);
    if (extra.length) throw new Error(`${key} opened ${extra.join(', ')} beyond its DEPS: add them to DEPS in bench/serving-memory.ts`);
  }
  const storeOpenAfter = key === 'store' || key === ALL || storeOpenBefore;
  const { snap: after, tags } = await snapshot(res, storeOpenAfter);
  const out: ChildResult = {
    resource: key, name: key === ALL ? 'every resource (warm)' : all.get(key)!.name, deps, load_ms: Math.round(loadMs), before, after, peak_rss: peak, duckdb_tags: tags,
  };
  if (key === ALL) {
    await res.store.close();
    out.after_store_closed = (await snapshot(res, false)).snap;
  }
  process.stdout.write(`RESULT ${JSON.stringify(out)}\n`);
  await res.close();
}

function runChild(buildDir: string, key: string, malloc: string): Promise<ChildResult> {
  return new Promise((resolvePromise, reject) => {
    const node = [process.execPath, '--expose-gc', '--import', 'tsx', import.meta.filename, '--child', buildDir, key];
    // jemalloc as the ETL runs it (scripts/with-jemalloc.sh); the service runs on glibc's malloc today.
    const [cmd, ...args] = malloc === 'jemalloc' ? ['sh', join(ROOT, 'scripts', 'with-jemalloc.sh'), ...node] : node;
    const env = malloc === 'jemalloc' ? { ...process.env, ETL_MALLOC: 'jemalloc', SERVING_MEMORY_SETTLE_MS: '1500' } : process.env;
    const p = spawn(cmd!, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => p.kill('SIGKILL'), 20 * 60_000);
    p.on('close', (code) => {
      clearTimeout(timer);
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code !== 0 || !line) reject(new Error(`child for ${key} exited ${code}: ${err.slice(-2000)}`));
      else resolvePromise(JSON.parse(line.slice('RESULT '.length)) as ChildResult);
    });
  });
}

const deltaMb = (r: ChildResult, f: (typeof FIELDS)[number]) => (r.after[f] - r.before[f]) / MB;

interface Summary {
  resource: string;
  name: string;
  deps: string[];
  /** Medians over the runs, MB. */
  heap_used_mb: number;
  external_mb: number;
  array_buffers_mb: number;
  rss_mb: number;
  rss_anon_mb: number;
  rss_file_mb: number;
  duckdb_mb: number;
  /** Peak RSS during the load above the RSS before it. */
  peak_rss_mb: number;
  load_ms: number;
  /** heap + external + DuckDB: the memory the process accounts for (RSS besides is allocator slack and code). */
  accounted_mb: number;
  /** `all` only: RSS and anonymous RSS above the start once the store is closed after the warm-up. */
  store_closed?: { rss_mb: number; rss_anon_mb: number; heap_used_mb: number; external_mb: number };
}

function summarise(key: string, runs: ChildResult[]): Summary {
  const med = (f: (r: ChildResult) => number) => r2(median(runs.map(f)));
  return {
    resource: key,
    name: runs[0]!.name,
    deps: runs[0]!.deps,
    heap_used_mb: med((r) => deltaMb(r, 'heap_used')),
    external_mb: med((r) => deltaMb(r, 'external')),
    array_buffers_mb: med((r) => deltaMb(r, 'array_buffers')),
    rss_mb: med((r) => deltaMb(r, 'rss')),
    rss_anon_mb: med((r) => deltaMb(r, 'rss_anon')),
    rss_file_mb: med((r) => deltaMb(r, 'rss_file')),
    duckdb_mb: med((r) => deltaMb(r, 'duckdb')),
    peak_rss_mb: med((r) => (r.peak_rss - r.before.rss) / MB),
    load_ms: med((r) => r.load_ms),
    accounted_mb: med((r) => deltaMb(r, 'heap_used') + deltaMb(r, 'external') + deltaMb(r, 'duckdb')),
    ...(runs[0]!.after_store_closed
      ? {
          store_closed: {
            rss_mb: med((r) => (r.after_store_closed!.rss - r.before.rss) / MB),
            rss_anon_mb: med((r) => (r.after_store_closed!.rss_anon - r.before.rss_anon) / MB),
            heap_used_mb: med((r) => (r.after_store_closed!.heap_used - r.before.heap_used) / MB),
            external_mb: med((r) => (r.after_store_closed!.external - r.before.external) / MB),
          },
        }
      : {}),
  };
}

/** DuckDB's memory by tag (MB, the non-zero ones) after a child's load. */
const tagsMb = (r: ChildResult | undefined) => Object.fromEntries(Object.entries(r?.duckdb_tags ?? {}).filter(([, v]) => v > 0).map(([k, v]) => [k, r2(v / MB)]));

/** Bytes of the build's serving files (the Parquet tables, the binary files and the keyed-rows files). */
function buildFiles(buildDir: string): Record<string, number> {
  return Object.fromEntries(readdirSync(buildDir).filter((f) => /\.(parquet|bin|rows)$/.test(f)).map((f) => [f, statSync(join(buildDir, f)).size]));
}

async function main(): Promise<void> {
  const scales = argStr('addresses', '100000,1000000').split(',').map(Number).sort((a, b) => a - b);
  const RUNS = arg('runs', 3);
  const SEED = arg('seed', 42);
  const only = argStr('only', '');
  const MALLOC = argStr('malloc', 'system');
  const IN_HEAP = process.argv.includes('--lookups-in-heap');
  const AREAS_IN_HEAP = process.argv.includes('--areas-in-heap');
  if (IN_HEAP && AREAS_IN_HEAP) throw new Error('--lookups-in-heap or --areas-in-heap, not both');
  const STR_IN_HEAP = process.argv.includes('--str-in-heap');
  const TAG = argStr('tag', '');
  const views = tempDir('pi-serving-memory-');
  if (MALLOC !== 'system' && MALLOC !== 'jemalloc') throw new Error('--malloc is system or jemalloc');
  const keys = only ? only.split(',') : [...Object.keys(DEPS), ALL];
  for (const k of keys) if (k !== ALL && !DEPS[k]) throw new Error(`unknown resource ${k}; one of ${Object.keys(DEPS).join(', ')}`);
  // DEPS names every resource of BuildResources, and only those.
  const fields = [...lazies(new BuildResources({ id: 'x', dir: '/nonexistent', manifest: {} })).keys()];
  const missing = fields.filter((f) => !DEPS[f]);
  if (missing.length || fields.length !== Object.keys(DEPS).length) throw new Error(`DEPS and BuildResources differ: ${missing.join(', ') || Object.keys(DEPS).filter((k) => !fields.includes(k)).join(', ')}`);
  const log = (m: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${m}`);
  const command = `node --expose-gc --import tsx bench/serving-memory.ts --addresses ${scales.join(',')} --runs ${RUNS} --seed ${SEED}${only ? ` --only ${only}` : ''}${MALLOC !== 'system' ? ` --malloc ${MALLOC}` : ''}${IN_HEAP ? ' --lookups-in-heap' : ''}${AREAS_IN_HEAP ? ' --areas-in-heap' : ''}${STR_IN_HEAP ? ' --str-in-heap' : ''}${TAG ? ` --tag ${TAG}` : ''}`;
  const perScale: Array<{ N: number; properties: number; summaries: Summary[]; result: Record<string, unknown> }> = [];
  for (const N of scales) {
    const { dataDir } = await ensureBenchBuild(N, SEED, log);
    const published = realpathSync(join(dataDir, 'current'));
    const viewed = IN_HEAP ? lookupsInHeapView(published, join(views.dir, String(N)))
      : AREAS_IN_HEAP ? lookupsInHeapView(published, join(views.dir, String(N)), AREA_LOOKUP_FILES) : published;
    const buildDir = STR_IN_HEAP ? strInHeapView(viewed, join(views.dir, `${N}-str`)) : viewed;
    const manifest = JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8')) as { build_id: string; tables: Record<string, { rows: number }> };
    const loadStart = loadAverage();
    const startedAt = new Date().toISOString();
    const byKey = new Map<string, ChildResult[]>(keys.map((k) => [k, []]));
    for (let run = 0; run < RUNS; run++) {
      // A rotated order per run: no resource always runs first or last.
      const order = keys.map((_, i) => keys[(i + run * Math.max(1, Math.floor(keys.length / RUNS))) % keys.length]!);
      for (const k of order) {
        const r = await runChild(buildDir, k, MALLOC);
        byKey.get(k)!.push(r);
        log(`${N} run ${run + 1}/${RUNS} ${k}: rss ${deltaMb(r, 'rss').toFixed(1)} MB (anon ${deltaMb(r, 'rss_anon').toFixed(1)}), heap ${deltaMb(r, 'heap_used').toFixed(1)}, external ${deltaMb(r, 'external').toFixed(1)}, duckdb ${deltaMb(r, 'duckdb').toFixed(1)}, ${r.load_ms} ms`);
      }
    }
    const summaries = keys.map((k) => summarise(k, byKey.get(k)!));
    const parts = summaries.filter((s) => s.resource !== ALL);
    const sum = (f: keyof Summary) => r2(parts.reduce((a, s) => a + (s[f] as number), 0));
    const baseline = byKey.get(keys.find((k) => DEPS[k]?.length === 0) ?? keys[0]!)!.map((r) => r.before.rss / MB);
    const result = {
      bench: 'serving-memory',
      addresses: N,
      seed: SEED,
      properties: manifest.tables.properties?.rows ?? null,
      build_id: manifest.build_id,
      runs: RUNS,
      malloc: MALLOC === 'jemalloc' ? 'jemalloc (scripts/with-jemalloc.sh: 1 s decay), 1.5 s wait after the GCs' : "glibc's (as the service runs)",
      command,
      when: startedAt,
      finished: new Date().toISOString(),
      commit: gitCommit(),
      machine: describeMachine(),
      load_average_start: loadStart,
      load_average_end: loadAverage(),
      method: 'each resource alone in a fresh child (node --expose-gc): its DEPS loaded, GC, snapshot, the resource loaded, GC, snapshot; deltas in MB, medians over the runs; `all` warms every resource in one child',
      child_baseline_rss_mb: r2(median(baseline)),
      serving_files_bytes: buildFiles(buildDir),
      sum_of_parts: { rss_mb: sum('rss_mb'), rss_anon_mb: sum('rss_anon_mb'), rss_file_mb: sum('rss_file_mb'), heap_used_mb: sum('heap_used_mb'), external_mb: sum('external_mb'), duckdb_mb: sum('duckdb_mb'), accounted_mb: sum('accounted_mb') },
      resources: summaries,
      duckdb_tags_store_mb: tagsMb(byKey.get('store')?.[0]),
      duckdb_tags_all_warm_mb: tagsMb(byKey.get(ALL)?.[0]),
      raw: Object.fromEntries([...byKey].map(([k, rs]) => [k, rs.map((r) => ({ load_ms: r.load_ms, peak_rss: r.peak_rss, before: r.before, after: r.after, after_store_closed: r.after_store_closed }))])),
    };
    perScale.push({ N, properties: Number(result.properties), summaries, result });
  }
  if (perScale.length >= 2) {
    const lo = perScale[0]!;
    const hi = perScale[perScale.length - 1]!;
    const dM = (hi.N - lo.N) / 1e6;
    const project = (f: 'rss_mb' | 'rss_anon_mb' | 'accounted_mb') => {
      const rows = hi.summaries.map((s) => {
        const a = lo.summaries.find((x) => x.resource === s.resource)!;
        const slope = (s[f] - a[f]) / dM;
        const fixed = s[f] - slope * (hi.N / 1e6);
        return { resource: s.resource, name: s.name, [`at_${lo.N}`]: a[f], [`at_${hi.N}`]: s[f], ratio: Math.abs(a[f]) >= 0.5 ? r2(s[f] / a[f]) : null, mb_per_million: r2(slope), fixed_mb: r2(fixed), at_30m_mb: Math.round(Math.max(s[f], fixed + slope * 30)) };
      });
      const parts = rows.filter((r) => r.resource !== ALL);
      const total = Math.round(parts.reduce((a, r) => a + r.at_30m_mb, 0));
      return { rows, per_million_sum: r2(parts.reduce((a, r) => a + r.mb_per_million, 0)), at_30m_per_process_mb: total, at_30m_workers_2_mb: total * 2 };
    };
    (hi.result as Record<string, unknown>).projection = {
      model: `linear between ${lo.N} and ${hi.N} addresses: cost = fixed + slope × millions (never below the cost measured at ${hi.N}: a negative slope is noise); 30M homes taken as 30M addresses; WORKERS=2 loads a copy per worker`,
      rss: project('rss_mb'),
      rss_anon: project('rss_anon_mb'),
      accounted: project('accounted_mb'),
    };
  }
  for (const s of perScale) {
    const file = join(ROOT, 'bench', 'results', `serving-memory-${s.N}${MALLOC === 'jemalloc' ? '-jemalloc' : ''}${IN_HEAP ? '-lookups-in-heap' : ''}${AREAS_IN_HEAP ? '-areas-in-heap' : ''}${STR_IN_HEAP ? '-str-in-heap' : ''}${only ? '-only' : ''}${TAG ? `-${TAG}` : ''}.json`);
    writeFileSync(file, `${JSON.stringify(s.result, null, 2)}\n`);
    log(`wrote ${file}`);
  }
  views.cleanup();
}

if (process.argv.includes('--child')) {
  const i = process.argv.indexOf('--child');
  await child(process.argv[i + 1]!, process.argv[i + 2]!);
  process.exit(0);
} else {
  await main();
}
