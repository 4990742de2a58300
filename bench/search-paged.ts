/**
 * The address search index in the heap (the whole file read into one buffer) against read
 * where it lies (lib/files/search-index-paged.ts: the per-address sections and the postings by
 * positioned reads through a bounded block cache, only the vocabulary and postcodes in the
 * heap), at two block-cache sizes (issue 46, ADR 0015 step 3). Optionally (`--scratch`) the
 * candidate pass's per-address scratch against one proportional to the addresses touched.
 *
 *   node --expose-gc --import tsx bench/search-paged.ts [--addresses 1000000] [--runs 3] [--queries 5000] [--caches 16,64] [--scratch dense,sparse]
 *
 * 1. In this process: the paged index's ranked results (50 per query: ordinals, UPRNs and
 *    scores) checked equal to the in-heap index's on every query the children time and
 *    `--check` more (default 20,000), at the smallest cache. This also leaves the file in the
 *    OS page cache, where the measured runs find it.
 * 2. Each variant in a fresh child (`node --expose-gc`), the variants alternated in a rotated
 *    order, `--runs` rounds: memory after a forced GC before opening, after opening and after the
 *    queries; then 1,000 warm-up queries and `--queries` timed ones, typed as users type them
 *    (test/support/search-relevance.ts over the bench build's addresses: abbreviations, no
 *    postcode, typos, postcode only, typeahead, word order, flats), each ranked afresh (no
 *    answer cache), the engine only (no HTTP). Medians over the runs.
 * Writes bench/results/search-paged-<N>.json.
 */
import { spawn } from 'node:child_process';
import { readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { LRUCache } from 'lru-cache';
import { BlockCache } from '../lib/files/block-file.ts';
import { readSearchIndex, SEARCH_INDEX_FILE } from '../lib/files/search-index-format.ts';
import { SearchIndex, type Ranked, type ScratchKind } from '../service/search/engine.ts';
import { accuracy, loadTruth, relevanceQueries, type RelevanceQuery } from '../test/support/search-relevance.ts';
import { ensureBenchBuild } from './support/bench-build.ts';
import { describeMachine, gitCommit, loadAverage } from './support/machine.ts';
import { arg, argStr, median, r2, summary } from './support/stats.ts';

const ROOT = resolve(import.meta.dirname, '..');
const MB = 1048576;
const WARMUP = 1_000;

interface Mem {
  heap_used: number;
  external: number;
  array_buffers: number;
  rss: number;
}
interface ChildResult {
  variant: string;
  open_ms: number;
  queries: number;
  per_query: ReturnType<typeof summary> & { mean_ms: number };
  cpu_ms_per_query: number;
  top1: number;
  top5: number;
  base: Mem;
  opened: Mem;
  after: Mem;
  cache: { hits: number; misses: number } | null;
}

async function settle(): Promise<Mem> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  for (let k = 0; k < 3; k++) {
    gc();
    await new Promise((r) => setTimeout(r, 100));
  }
  const m = process.memoryUsage();
  return { heap_used: m.heapUsed, external: m.external, array_buffers: m.arrayBuffers, rss: m.rss };
}

/** No answer cache: every query is ranked afresh. */
const noCache = () => new LRUCache<string, Ranked>({ max: 1 });

/** `heap[-sparse]` or `paged-<MB>[-sparse]`: the reader, its block cache (paged) and the candidate scratch. */
function open(path: string, variant: string): { index: SearchIndex; pages?: BlockCache } {
  const m = /^(heap|paged-(\d+))(?:-(dense|sparse))?$/.exec(variant);
  if (!m) throw new Error(`unknown variant ${variant}`);
  const scratch = (m[3] ?? 'dense') as ScratchKind;
  if (m[1] === 'heap') return { index: new SearchIndex(readSearchIndex(path), noCache(), { scratch }) };
  const pages = new BlockCache(Number(m[2]) * MB);
  return { index: SearchIndex.paged(path, pages, noCache(), { scratch }), pages };
}

async function child(path: string, queryFile: string, variant: string): Promise<void> {
  const { warm, timed } = JSON.parse(readFileSync(queryFile, 'utf8')) as { warm: string[]; timed: RelevanceQuery[] };
  const base = await settle();
  const t0 = performance.now();
  const { index, pages } = open(path, variant);
  const openMs = performance.now() - t0;
  const opened = await settle();
  for (const q of warm) index.search(q, 5);
  const ms: number[] = [];
  const c0 = process.cpuUsage();
  const acc = accuracy(timed, (q) => {
    const s = performance.now();
    const r = index.search(q, 5).map((x) => x.uprn);
    ms.push(performance.now() - s);
    return r;
  });
  const cpu = process.cpuUsage(c0);
  const after = await settle();
  const out: ChildResult = {
    variant, open_ms: Math.round(openMs), queries: ms.length,
    per_query: { ...summary(ms), mean_ms: r2(ms.reduce((a, b) => a + b, 0) / ms.length) },
    cpu_ms_per_query: r2((cpu.user + cpu.system) / 1000 / ms.length),
    top1: acc.top1, top5: acc.top5, base, opened, after,
    cache: pages ? { ...pages.stats } : null,
  };
  // Keeps the index alive through the last snapshot.
  if (index.search(warm[0]!, 1).length === 0) throw new Error('the first warm-up query found nothing');
  process.stdout.write(`RESULT ${JSON.stringify(out)}\n`);
}

function runChild(args: string[]): Promise<ChildResult> {
  return new Promise((res, rej) => {
    const p = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', import.meta.filename, '--child', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code !== 0 || !line) rej(new Error(`child ${args.join(' ')} exited ${code}: ${err.slice(-2000)}`));
      else res(JSON.parse(line.slice(7)) as ChildResult);
    });
  });
}

/** Every query's 50 ranked hits (UPRN and score) from the paged index, equal to the in-heap index's; returns the queries checked. */
function checkAgreement(path: string, queries: string[], cacheMb: number, scratch: ScratchKind[]): number {
  const heap = new SearchIndex(readSearchIndex(path), noCache());
  const others = [
    ...scratch.map((s) => SearchIndex.paged(path, new BlockCache(cacheMb * MB), noCache(), { scratch: s })),
    ...scratch.filter((s) => s !== 'dense').map((s) => new SearchIndex(readSearchIndex(path), noCache(), { scratch: s })),
  ];
  for (const q of queries) {
    const want = JSON.stringify(heap.search(q, 50));
    for (const o of others) if (JSON.stringify(o.search(q, 50)) !== want) throw new Error(`the in-heap and paged indexes rank "${q}" differently`);
  }
  for (const o of others) o.close();
  return queries.length;
}

async function main(): Promise<void> {
  const N = arg('addresses', 1_000_000);
  const RUNS = arg('runs', 3);
  const QUERIES = arg('queries', 5_000);
  const CHECK = arg('check', 20_000);
  const caches = argStr('caches', '16,64').split(',').map(Number);
  const scratch = argStr('scratch', 'dense').split(',') as ScratchKind[];
  const log = (m: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${m}`);
  const { dataDir } = await ensureBenchBuild(N, 42, log);
  const buildDir = realpathSync(join(dataDir, 'current'));
  const path = join(buildDir, SEARCH_INDEX_FILE);
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  await conn.run(`CREATE VIEW addresses AS SELECT * FROM read_parquet('${join(buildDir, 'addresses.parquet')}')`);
  const truth = await loadTruth(conn);
  conn.closeSync();
  db.closeSync();
  const timed = relevanceQueries(truth, QUERIES, 8);
  const warm = relevanceQueries(truth, WARMUP, 9).map((q) => q.q);
  const extra = relevanceQueries(truth, CHECK, 11).map((q) => q.q);
  const checked = checkAgreement(path, [...timed.map((q) => q.q), ...warm, ...extra], Math.min(...caches), scratch);
  log(`the paged index ranks ${checked} queries as the in-heap one does (50 hits each)`);
  const queryFile = join(tmpdir(), `search-paged-queries-${process.pid}.json`);
  writeFileSync(queryFile, JSON.stringify({ warm, timed }));
  const variants = scratch.flatMap((s) => {
    const sfx = scratch.length > 1 ? `-${s}` : '';
    return [`heap${sfx}`, ...caches.map((c) => `paged-${c}${sfx}`)];
  });
  const byVariant = new Map<string, ChildResult[]>(variants.map((v) => [v, []]));
  const loadStart = loadAverage();
  const when = new Date().toISOString();
  try {
    for (let run = 0; run < RUNS; run++) {
      const order = variants.map((_, i) => variants[(i + run) % variants.length]!);
      for (const v of order) {
        const r = await runChild([path, queryFile, v]);
        byVariant.get(v)!.push(r);
        log(`run ${run + 1}/${RUNS} ${v}: p50 ${r.per_query.p50_ms} p95 ${r.per_query.p95_ms} ms, heap+external after ${((r.after.heap_used + r.after.external - r.base.heap_used - r.base.external) / MB).toFixed(1)} MB, RSS +${((r.after.rss - r.base.rss) / MB).toFixed(0)} MB`);
      }
    }
  } finally {
    rmSync(queryFile, { force: true });
  }
  const d = (r: ChildResult, m: Mem, k: keyof Mem) => (m[k] - r.base[k]) / MB;
  const summaries = variants.map((v) => {
    const rs = byVariant.get(v)!;
    const med = (f: (r: ChildResult) => number) => r2(median(rs.map(f)));
    return {
      variant: v,
      p50_ms: med((r) => r.per_query.p50_ms),
      p95_ms: med((r) => r.per_query.p95_ms),
      p99_ms: med((r) => r.per_query.p99_ms),
      mean_ms: med((r) => r.per_query.mean_ms),
      cpu_ms_per_query: med((r) => r.cpu_ms_per_query),
      top1: med((r) => r.top1),
      top5: med((r) => r.top5),
      open_ms: med((r) => r.open_ms),
      heap_after_open_mb: med((r) => d(r, r.opened, 'heap_used')),
      external_after_open_mb: med((r) => d(r, r.opened, 'external')),
      heap_after_queries_mb: med((r) => d(r, r.after, 'heap_used')),
      external_after_queries_mb: med((r) => d(r, r.after, 'external')),
      rss_after_open_mb: med((r) => d(r, r.opened, 'rss')),
      rss_after_queries_mb: med((r) => d(r, r.after, 'rss')),
      block_cache_hit_rate: rs[0]!.cache ? med((r) => r.cache!.hits / (r.cache!.hits + r.cache!.misses)) : null,
      block_misses_per_query: rs[0]!.cache ? med((r) => r.cache!.misses / (r.queries + WARMUP + 1)) : null,
    };
  });
  const heap = summaries[0]!;
  const result = {
    bench: 'search-paged',
    addresses: N,
    file_bytes: statSync(path).size,
    runs: RUNS,
    command: `node --expose-gc --import tsx bench/search-paged.ts --addresses ${N} --runs ${RUNS} --queries ${QUERIES} --check ${CHECK} --caches ${caches.join(',')} --scratch ${scratch.join(',')}`,
    when,
    finished: new Date().toISOString(),
    commit: gitCommit(),
    machine: describeMachine(),
    load_average_start: loadStart,
    load_average_end: loadAverage(),
    agreement_checked_queries: checked,
    workload: `${QUERIES} typed queries (relevanceQueries seed 8 over the bench build's addresses) after ${WARMUP} warm-up ones, each ranked afresh (no answer cache), engine only; the file in the OS page cache`,
    memory_note: 'each figure is the child after a forced GC minus the child before opening; external includes ArrayBuffers (the in-heap file buffer, the block cache arena)',
    variants: summaries,
    ratios_to_heap: Object.fromEntries(summaries.slice(1).map((s) => [s.variant, {
      p50: r2(s.p50_ms / heap.p50_ms),
      p95: r2(s.p95_ms / heap.p95_ms),
      heap_plus_external_after_queries: r2((s.heap_after_queries_mb + s.external_after_queries_mb) / (heap.heap_after_queries_mb + heap.external_after_queries_mb)),
    }])),
    raw: Object.fromEntries([...byVariant]),
  };
  const sfx = caches.join(',') === '16,64' && scratch.join(',') === 'dense' ? '' : `-caches-${caches.join('-')}-scratch-${scratch.join('-')}`;
  const file = join(ROOT, 'bench', 'results', `search-paged-${N}${sfx}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  log(`wrote ${file}`);
}

if (process.argv.includes('--child')) {
  const i = process.argv.indexOf('--child');
  const [path, queries, variant] = process.argv.slice(i + 1);
  await child(path!, queries!, variant!);
  process.exit(0);
} else {
  await main();
}
