/**
 * The property record file read in the heap (the service's `RecordFile`, the whole file in one
 * buffer) against read where it lies, at two cache sizes (issue 46, ADR 0015): `rows-<MB>`, the
 * row-grouped file the service reads (`property-records.rows`, `lib/files/paged-record-file.ts`
 * over a `BlockCache`: a row's columns in one 4 KB page). The columnar file read paged (the
 * prototype this replaced, `paged-<MB>`) was measured beside them at commit 60a7563
 * (`bench/results/paged-records-1000000.json`, ADR 0015) and removed.
 *
 *   node --expose-gc --import tsx bench/paged-records.ts [--addresses 1000000] [--runs 3] [--seconds 5] [--caches 16,64] [--block-bytes 4096] [--mmap-module DIR]
 *
 * `--mmap-module DIR`: an mmap package installed outside the project (mmap-io, ADR 0015) adds a
 * third kind, the in-heap reader over the file memory-mapped (no copy in the heap).
 *
 * 1. In this process: every answer of the paged reader checked against the in-heap reader's
 *    on 20,000 random UPRNs (and misses), at the smallest cache, and every UPRN, in a scan and
 *    by lookup. This also leaves the files in the
 *    OS page cache, where the measured runs find it: the case paging is for (the page cache holds
 *    the file once for every worker), not a cold disk.
 * 2. Each reader in a fresh child (`node --expose-gc`), the variants alternating in a rotated
 *    order, `--runs` rounds: memory after a forced GC before opening, after opening, and after
 *    the lookups (the cache full); then lookups of UPRNs drawn uniformly from the file (seeded,
 *    the same sequence for every variant; uniform is the worst case for a cache), 20,000 to warm
 *    up, then as many as fit in `--seconds` of the process's CPU time: lookups per CPU-second
 *    (user + system). Medians over the runs; the ratios are of the medians of one run of runs.
 * Writes bench/results/paged-records-<N>.json (`-caches-<a>-<b>` for other cache sizes than 16,64).
 */
import { spawn } from 'node:child_process';
import { closeSync, fstatSync, openSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { BlockCache } from '../lib/files/block-file.ts';
import { PagedRecordFile as RowsRecordFile, PROPERTY_RECORDS_PAGED_FILE } from '../lib/files/paged-record-file.ts';
import { PROPERTY_RECORDS_FILE, RECORD_FILE_MAGIC, RecordFile } from '../lib/files/record-file-format.ts';
import { readSectionsFile } from '../lib/files/sections-file.ts';
import { ensureBenchBuild } from './support/bench-build.ts';
import { describeMachine, gitCommit, loadAverage } from './support/machine.ts';
import { arg, argStr, median, r2 } from './support/stats.ts';

const ROOT = resolve(import.meta.dirname, '..');
const MB = 1048576;
const WARMUP = 20_000;

interface Mem {
  heap_used: number;
  array_buffers: number;
  external: number;
  rss: number;
  /** RSS split: the process's own pages, and file-backed ones (a mapped file: the page cache, shared). */
  rss_anon: number;
  rss_file: number;
}
interface ChildResult {
  variant: string;
  open_ms: number;
  lookups: number;
  found: number;
  cpu_s: number;
  wall_s: number;
  base: Mem;
  opened: Mem;
  after: Mem;
  cache: { hits: number; misses: number; cached_bytes: number } | null;
}

async function settle(): Promise<Mem> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  for (let k = 0; k < 3; k++) {
    gc();
    await new Promise((r) => setTimeout(r, 100));
  }
  const m = process.memoryUsage();
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (f: string) => Number(new RegExp(`^${f}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
  return { heap_used: m.heapUsed, array_buffers: m.arrayBuffers, external: m.external, rss: m.rss, rss_anon: kb('RssAnon'), rss_file: kb('RssFile') };
}

/** The file's UPRNs, in order. */
function fileUprns(path: string): Float64Array {
  return readSectionsFile<{ n: number }>(readFileSync(path), RECORD_FILE_MAGIC, 'a record file', path).section<Float64Array>('uprn');
}

/** Seeded UPRNs drawn uniformly from the file's (a Float64Array, written to `out`). */
function queryFile(path: string, count: number, out: string): void {
  const uprn = fileUprns(path);
  const q = new Float64Array(count);
  let s = 42;
  for (let k = 0; k < count; k++) {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff; // exact in 32-bit integers (in doubles the product lost its low bits and the sequence cycled short)
    q[k] = uprn[Math.floor((s / 2147483648) * uprn.length)]!;
  }
  writeFileSync(out, new Uint8Array(q.buffer));
}

type Reader = { get(u: number): Record<string, unknown> | undefined };

/**
 * The file memory-mapped by the npm package at `modulePath` (mmap-io's API: `map(size, prot,
 * flags, fd, offset)` → a Buffer over the mapping), read by the in-heap reader over that buffer.
 * Loaded by path, so the project does not depend on it (ADR 0015).
 */
function mapFile(path: string, modulePath: string): Buffer {
  const mmap = createRequire(import.meta.url)(modulePath) as { map(size: number, prot: number, flags: number, fd: number, offset: number): Buffer; PROT_READ: number; MAP_SHARED: number };
  const fd = openSync(path, 'r');
  try {
    return mmap.map(fstatSync(fd).size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0);
  } finally {
    closeSync(fd);
  }
}

async function child(path: string, queries: string, variant: string, seconds: number, blockBytes: number, mmapModule: string): Promise<void> {
  const q = new Float64Array(readFileSync(queries).buffer.slice(0));
  const base = await settle();
  const t0 = performance.now();
  let reader: Reader;
  let blocks: BlockCache | undefined;
  if (variant === 'heap') reader = new RecordFile(readFileSync(path), path);
  else if (variant === 'mmap') reader = new RecordFile(mapFile(path, mmapModule), path);
  else if (variant.startsWith('rows-')) {
    const cacheMb = Number(/^rows-(\d+)$/.exec(variant)?.[1]);
    if (!(cacheMb > 0)) throw new Error(`unknown variant ${variant}`);
    reader = RowsRecordFile.open(rowsPath(path), (blocks = new BlockCache(cacheMb * MB, blockBytes)));
  } else throw new Error(`unknown variant ${variant}`);
  const openMs = performance.now() - t0;
  const opened = await settle();
  let k = 0;
  let found = 0;
  for (; k < WARMUP; k++) if (reader.get(q[k % q.length]!)) found++;
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  let lookups = 0;
  let cpu = 0;
  while (cpu < seconds) {
    for (let b = 0; b < 1000; b++, k++, lookups++) if (reader.get(q[k % q.length]!)) found++;
    const c = process.cpuUsage(c0);
    cpu = (c.user + c.system) / 1e6;
  }
  const wall = (performance.now() - w0) / 1000;
  const after = await settle();
  const out: ChildResult = {
    variant, open_ms: Math.round(openMs), lookups, found, cpu_s: r2(cpu), wall_s: r2(wall), base, opened, after,
    cache: blocks ? { hits: blocks.stats.hits, misses: blocks.stats.misses, cached_bytes: blocks.bytes } : null,
  };
  // Keeps the reader alive through the last snapshot.
  if (!reader.get(q[0]!)) throw new Error('the first query has no row');
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

/** The row-grouped record file beside the columnar one (the same build). */
const rowsPath = (binPath: string) => join(binPath, '..', PROPERTY_RECORDS_PAGED_FILE);

/**
 * The paged reader answers exactly as the in-heap one: hits and misses, random order; and the
 * row-grouped file holds every UPRN of the columnar one, in order, each row equal.
 */
function checkAgreement(path: string, cacheMb: number, blockBytes: number): { random: number; every_uprn: number } {
  const heap = new RecordFile(readFileSync(path), path);
  const rows = RowsRecordFile.open(rowsPath(path), new BlockCache(cacheMb * MB, blockBytes));
  const uprns = fileUprns(path);
  let s = 7;
  let random = 0;
  for (let k = 0; k < 20_000; k++) {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff; // exact in 32-bit integers (in doubles the product lost its low bits and the sequence cycled short)
    const u = uprns[s % uprns.length]! + (k % 10 === 0 ? 0.5 : 0);
    const want = heap.get(u);
    if (!isDeepStrictEqual(rows.get(u), want)) throw new Error(`row-grouped and in-heap readers differ at uprn ${u}`);
    random++;
  }
  let i = 0;
  for (const row of rows.scan()) {
    if (row.uprn !== uprns[i] || !isDeepStrictEqual(row, heap.get(uprns[i]!)) || !isDeepStrictEqual(rows.get(uprns[i]!), row)) throw new Error(`row-grouped file differs at row ${i} (uprn ${uprns[i]})`);
    i++;
  }
  if (i !== uprns.length) throw new Error(`row-grouped file has ${i} rows, the columnar ${uprns.length}`);
  rows.close();
  return { random, every_uprn: i };
}

async function main(): Promise<void> {
  const N = arg('addresses', 1_000_000);
  const RUNS = arg('runs', 3);
  const SECONDS = arg('seconds', 5);
  const BLOCK = arg('block-bytes', 4096);
  const caches = argStr('caches', '16,64').split(',').map(Number);
  // An mmap package installed outside the project (e.g. /tmp/x/node_modules/mmap-io): adds the `mmap` variant.
  const MMAP = process.argv.includes('--mmap-module') ? resolve(argStr('mmap-module', '')) : '';
  const log = (m: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${m}`);
  const { dataDir } = await ensureBenchBuild(N, 42, log);
  const path = join(realpathSync(join(dataDir, 'current')), PROPERTY_RECORDS_FILE);
  const checked = checkAgreement(path, Math.min(...caches), BLOCK);
  log(`paged readers agree with the in-heap reader on ${checked.random} random lookups and every one of ${checked.every_uprn} UPRNs`);
  const queries = join(tmpdir(), `paged-records-queries-${process.pid}.f64`);
  queryFile(path, 1_000_000, queries);
  const variants = ['heap', ...caches.map((c) => `rows-${c}`), ...(MMAP ? ['mmap'] : [])];
  const byVariant = new Map<string, ChildResult[]>(variants.map((v) => [v, []]));
  const loadStart = loadAverage();
  const when = new Date().toISOString();
  try {
    for (let run = 0; run < RUNS; run++) {
      const order = variants.map((_, i) => variants[(i + run) % variants.length]!);
      for (const v of order) {
        const r = await runChild([path, queries, v, String(SECONDS), String(BLOCK), MMAP]);
        byVariant.get(v)!.push(r);
        log(`run ${run + 1}/${RUNS} ${v}: ${Math.round(r.lookups / r.cpu_s)} lookups/CPU-s, heap+buffers after ${((r.after.heap_used + r.after.array_buffers - r.base.heap_used - r.base.array_buffers) / MB).toFixed(1)} MB`);
      }
    }
  } finally {
    rmSync(queries, { force: true });
  }
  const held = (r: ChildResult, m: Mem) => (m.heap_used + m.array_buffers - r.base.heap_used - r.base.array_buffers) / MB;
  const summaries = variants.map((v) => {
    const rs = byVariant.get(v)!;
    const med = (f: (r: ChildResult) => number) => r2(median(rs.map(f)));
    return {
      variant: v,
      lookups_per_cpu_s: Math.round(median(rs.map((r) => r.lookups / r.cpu_s))),
      us_per_lookup: med((r) => (r.cpu_s / r.lookups) * 1e6),
      held_after_open_mb: med((r) => held(r, r.opened)),
      held_after_lookups_mb: med((r) => held(r, r.after)),
      rss_after_lookups_mb: med((r) => (r.after.rss - r.base.rss) / MB),
      rss_anon_after_lookups_mb: med((r) => (r.after.rss_anon - r.base.rss_anon) / MB),
      rss_file_after_lookups_mb: med((r) => (r.after.rss_file - r.base.rss_file) / MB),
      open_ms: med((r) => r.open_ms),
      cache_hit_rate: rs[0]!.cache ? med((r) => r.cache!.hits / (r.cache!.hits + r.cache!.misses)) : null,
      lookups_per_run: rs.map((r) => r.lookups),
    };
  });
  const heap = summaries[0]!;
  const result = {
    bench: 'paged-records',
    addresses: N,
    file: PROPERTY_RECORDS_FILE,
    file_bytes: statSync(path).size,
    rows_file: PROPERTY_RECORDS_PAGED_FILE,
    rows_file_bytes: statSync(rowsPath(path)).size,
    block_bytes: BLOCK,
    runs: RUNS,
    seconds_of_cpu_per_run: SECONDS,
    command: `node --expose-gc --import tsx bench/paged-records.ts --addresses ${N} --runs ${RUNS} --seconds ${SECONDS} --caches ${caches.join(',')} --block-bytes ${BLOCK}${MMAP ? ` --mmap-module ${MMAP}` : ''}`,
    when,
    finished: new Date().toISOString(),
    commit: gitCommit(),
    machine: describeMachine(),
    load_average_start: loadStart,
    load_average_end: loadAverage(),
    agreement_checked_lookups: checked,
    workload: 'UPRNs drawn uniformly from the file (seed 42), the file in the OS page cache; 20,000 lookups to warm up, then --seconds of process CPU',
    memory_note: 'held = V8 heap used + ArrayBuffers after a forced GC, above the child before opening; rss_anon is the process\'s own memory, rss_file the mapped file\'s pages (the page cache, shared by every process that maps it)',
    variants: summaries,
    ratios_to_heap: Object.fromEntries(summaries.slice(1).map((s) => [s.variant, {
      lookups_per_cpu_s: r2(s.lookups_per_cpu_s / heap.lookups_per_cpu_s),
      held_after_lookups: r2(s.held_after_lookups_mb / heap.held_after_lookups_mb),
    }])),
    raw: Object.fromEntries([...byVariant]),
  };
  // Other cache sizes than the default pair go to a file of their own.
  const file = join(ROOT, 'bench', 'results', `paged-records-${N}${caches.join(',') === '16,64' ? '' : `-caches-${caches.join('-')}`}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  log(`wrote ${file}`);
}

if (process.argv.includes('--child')) {
  const i = process.argv.indexOf('--child');
  const [path, queries, variant, seconds, block, mmapModule] = process.argv.slice(i + 1);
  await child(path!, queries!, variant!, Number(seconds), Number(block), mmapModule ?? '');
  process.exit(0);
} else {
  await main();
}
