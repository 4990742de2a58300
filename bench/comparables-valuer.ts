/**
 * The sale valuer and the comparables, in the heap (a build of an older ETL) against read where
 * they lie (valuation-homes.rows, comparables.rows through the build's page cache; issue 46,
 * ADR 0015 step 4; the valuer's evidence, sale-evidence.rows, step 6), side by side in one
 * process on one bench build.
 *
 *   node --expose-gc --import tsx bench/comparables-valuer.ts [--addresses 1000000] [--runs 3] [--calls 20000] [--cells 125,250,500,1000] [--cache-mb 64]
 *
 * All are opened on the same build: "heap" from a folder of links to every file of the build
 * but the new ones (so the service takes the in-heap path, an older build's), "evidence_heap"
 * (the valuer only) from one without the evidence files (the homes read from their file, the
 * evidence in the heap: step 4's valuer), "file" from the build itself. Per run, each path answers the same calls, the two alternated in a rotated
 * order: `--calls` sale valuations of random UPRNs (SaleValuer.valuation, what GET
 * /valuations/{uprn}/sale answers) and `--calls` / 10 comparables searches
 * (soldComparables, GET /prices/comparables's answer: 500 m around a random sold home, sorted
 * by distance, 20 a page) — in process, no HTTP, so the ratio is of the work that changed.
 * Answers are checked equal. Medians of `--runs`; the page cache's misses per call. With
 * `--cells`, comparables files of other cell sizes are written from the build's Parquet and
 * timed the same way (the cell size is the file's only tuning). Open time of each path too.
 * Writes bench/results/comparables-valuer-<N>.json.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdirSync, readdirSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BuildContext } from '../etl/pipeline/context.ts';
import { writeComparables } from '../etl/stages/30-serving/30-comparables/stage.ts';
import { BlockCache } from '../lib/files/block-file.ts';
import { COMPARABLES_CELL_M, COMPARABLES_FILE } from '../lib/files/comparables-file.ts';
import { SALE_EVIDENCE_FILE, SALE_EVIDENCE_POSTCODES_FILE } from '../lib/files/sale-evidence-file.ts';
import { VALUATION_HOMES_FILE } from '../lib/files/valuation-homes-file.ts';
import { ComparablesFile } from '../service/lookups/comparables-file.ts';
import { loadComparables, type ComparablesSource } from '../service/lookups/comparables.ts';
import { soldComparables } from '../service/lookups/comparables-search.ts';
import { loadPropertyRecords } from '../service/records/property-records.ts';
import { BuildStore } from '../service/store/store.ts';
import { SaleValuer } from '../service/valuers/sale-valuer.ts';
import { tempDir } from '../test/support/tmp.ts';
import { ensureBenchBuild } from './support/bench-build.ts';
import { describeMachine, gitCommit, loadAverage } from './support/machine.ts';
import { arg, argStr, median, r2 } from './support/stats.ts';
import { seededRandom } from '../test/support/chaos.ts';

const ROOT = resolve(import.meta.dirname, '..');
const N = arg('addresses', 1_000_000);
const RUNS = arg('runs', 3);
const CALLS = arg('calls', 20_000);
const CACHE_MB = arg('cache-mb', 64);
const CELLS = argStr('cells', '').split(',').filter(Boolean).map(Number).filter((c) => c !== COMPARABLES_CELL_M);
const log = (m: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${m}`);

/** Seeded (mulberry32): every run sees the same values. */
const rng = seededRandom;

async function main(): Promise<void> {
  const { dataDir } = await ensureBenchBuild(N, 42, log);
  const buildDir = realpathSync(join(dataDir, 'current'));
  const { dir: tmp, cleanup } = tempDir('pi-bench-cv-');
  try {
    // The build as an older ETL published it: every file but the new ones; and without the evidence files alone.
    const evidenceFiles = [SALE_EVIDENCE_FILE, SALE_EVIDENCE_POSTCODES_FILE];
    const linked = (name: string, leftOut: string[]) => {
      const dir = join(tmp, name);
      mkdirSync(dir);
      for (const f of readdirSync(buildDir)) if (!leftOut.includes(f)) symlinkSync(join(buildDir, f), join(dir, f));
      return dir;
    };
    const legacy = linked('legacy', [COMPARABLES_FILE, VALUATION_HOMES_FILE, ...evidenceFiles]);
    const homesOnly = linked('homes-only', evidenceFiles);

    const store = await BuildStore.open(buildDir);
    // The records both paths read (as the server does, paged), on a cache of their own so they do not change the measured ones.
    const records = await loadPropertyRecords(buildDir, new BlockCache(64 * 1048576));
    const timed = async <T>(f: () => Promise<T>): Promise<[T, number]> => {
      const t0 = performance.now();
      const v = await f();
      return [v, performance.now() - t0];
    };
    const heapCache = new BlockCache(CACHE_MB * 1048576);
    const fileCache = new BlockCache(CACHE_MB * 1048576);
    const [heapValuer, heapValuerMs] = await timed(() => SaleValuer.open(store, new Set(), { dir: legacy, cache: heapCache }));
    const evidenceHeapCache = new BlockCache(CACHE_MB * 1048576);
    const [evidenceHeapValuer, evidenceHeapValuerMs] = await timed(() => SaleValuer.open(store, new Set(), { dir: homesOnly, cache: evidenceHeapCache }));
    const [fileValuer, fileValuerMs] = await timed(() => SaleValuer.open(store, new Set(), { dir: buildDir, cache: fileCache }));
    const [heapComps, heapCompsMs] = await timed(() => loadComparables(store, heapValuer));
    const [fileComps, fileCompsMs] = await timed(async () => ComparablesFile.open(buildDir, fileCache, fileValuer.lookup, fileValuer.asOfMonth)!);
    log(`opened: valuer heap ${heapValuerMs.toFixed(0)} ms, evidence heap ${evidenceHeapValuerMs.toFixed(0)} ms, file ${fileValuerMs.toFixed(0)} ms; comparables heap ${heapCompsMs.toFixed(0)} ms, file ${fileCompsMs.toFixed(0)} ms`);

    // Other cell sizes: the build's sales and properties as the stage reads them.
    const cellFiles = new Map<number, ComparablesFile>();
    const caches: Record<string, BlockCache> = { file: fileCache, evidence_heap: evidenceHeapCache };
    if (CELLS.length) {
      const db = await DuckDBInstance.create(':memory:');
      const conn = await db.connect();
      for (const t of ['sales', 'properties']) await conn.run(`CREATE VIEW ${t} AS SELECT * FROM read_parquet('${join(buildDir, `${t}.parquet`)}')`);
      for (const c of CELLS) {
        const file = join(tmp, `comparables-${c}.rows`);
        const ctx = { db, conn, buildDir: tmp, artifacts: {}, log: { info: () => undefined, warn: () => undefined, error: () => undefined } } as unknown as BuildContext;
        await writeComparables(ctx, c, file);
        const dir = join(tmp, `cells-${c}`);
        mkdirSync(dir);
        symlinkSync(file, join(dir, COMPARABLES_FILE));
        caches[`file_${c}m`] = new BlockCache(CACHE_MB * 1048576);
        cellFiles.set(c, ComparablesFile.open(dir, caches[`file_${c}m`]!, fileValuer.lookup, fileValuer.asOfMonth)!);
      }
      conn.closeSync();
      db.closeSync();
    }

    // The calls: random UPRNs of the build; points of random sold homes.
    const uprns = (await store.columns('valuation_homes')).uprn as number[];
    const sold = await store.columns('lookup_comparables_all');
    const r = rng(7);
    const valuations = Array.from({ length: CALLS }, () => uprns[Math.floor(r() * uprns.length)]!);
    const points = Array.from({ length: Math.max(1, Math.floor(CALLS / 10)) }, () => {
      const i = Math.floor(r() * sold.uprn!.length);
      return { lat: sold.lat![i]!, lng: sold.lng![i]!, self: sold.uprn![i]! };
    });

    // Answers equal before anything is timed.
    for (const u of valuations.slice(0, 2000)) {
      const want = JSON.stringify(heapValuer.valuation(u));
      if (JSON.stringify(fileValuer.valuation(u)) !== want || JSON.stringify(evidenceHeapValuer.valuation(u)) !== want) throw new Error(`valuation of ${u} differs`);
    }
    const query = { sort: 'distance', page: 1, per_page: 20 } as Parameters<typeof soldComparables>[4];
    const search = (src: ComparablesSource, p: (typeof points)[number]) => soldComparables(src, records, p, 500, query);
    for (const p of points.slice(0, 300)) if (JSON.stringify(search(fileComps, p)) !== JSON.stringify(search(heapComps, p))) throw new Error(`comparables around ${p.self} differ`);

    const valuers: Record<string, SaleValuer> = { heap: heapValuer, evidence_heap: evidenceHeapValuer, file: fileValuer };
    const comps: Record<string, ComparablesSource> = { heap: heapComps, file: fileComps, ...Object.fromEntries([...cellFiles].map(([c, f]) => [`file_${c}m`, f])) };
    const perCall: Record<string, number[]> = {};
    const misses: Record<string, number[]> = {};
    const record = (name: string, us: number, miss: number) => {
      (perCall[name] ??= []).push(us);
      (misses[name] ??= []).push(miss);
    };
    for (let run = 0; run < RUNS; run++) {
      const vNames = Object.keys(valuers);
      const cNames = Object.keys(comps);
      // Rotated order: each path goes first in some run.
      for (let k = 0; k < vNames.length; k++) {
        const name = vNames[(k + run) % vNames.length]!;
        const v = valuers[name]!;
        const before = caches[name]?.stats.misses ?? 0;
        const t0 = performance.now();
        for (const u of valuations) v.valuation(u);
        record(`valuation_${name}`, ((performance.now() - t0) * 1000) / valuations.length, ((caches[name]?.stats.misses ?? 0) - before) / valuations.length);
      }
      for (let k = 0; k < cNames.length; k++) {
        const name = cNames[(k + run) % cNames.length]!;
        const c = comps[name]!;
        const cache = caches[name];
        const before = cache?.stats.misses ?? 0;
        const t0 = performance.now();
        for (const p of points) search(c, p);
        record(`comparables_${name}`, ((performance.now() - t0) * 1000) / points.length, ((cache?.stats.misses ?? 0) - before) / points.length);
      }
      log(`run ${run + 1}: ${Object.entries(perCall).map(([k, v]) => `${k} ${v.at(-1)!.toFixed(1)} µs`).join(', ')}`);
    }
    const us = Object.fromEntries(Object.entries(perCall).map(([k, v]) => [k, r2(median(v))]));
    const out = {
      bench: 'comparables-valuer',
      addresses: N,
      build_id: buildDir.split('/').pop(),
      runs: RUNS,
      calls: { valuations: valuations.length, comparables: points.length, comparables_query: 'radius 500 m around a random sold home (itself left out), sort distance, 20 a page' },
      page_cache_mb: CACHE_MB,
      cell_m: COMPARABLES_CELL_M,
      command: `node --expose-gc --import tsx bench/comparables-valuer.ts --addresses ${N} --runs ${RUNS} --calls ${CALLS}${CELLS.length ? ` --cells ${argStr('cells', '')}` : ''}`,
      open_ms: { valuer_heap: Math.round(heapValuerMs), valuer_evidence_heap: Math.round(evidenceHeapValuerMs), valuer_file: Math.round(fileValuerMs), comparables_heap: Math.round(heapCompsMs), comparables_file: Math.round(fileCompsMs) },
      median_us_per_call: us,
      ratio_file_to_heap: {
        valuation: r2(us.valuation_file! / us.valuation_heap!),
        valuation_to_evidence_heap: r2(us.valuation_file! / us.valuation_evidence_heap!),
        comparables: r2(us.comparables_file! / us.comparables_heap!),
        ...Object.fromEntries(CELLS.map((c) => [`comparables_${c}m`, r2(us[`comparables_file_${c}m`]! / us.comparables_heap!)])),
      },
      page_misses_per_call: Object.fromEntries(Object.entries(misses).filter(([k]) => !k.endsWith('_heap')).map(([k, v]) => [k, r2(median(v))])),
      file_bytes: Object.fromEntries([COMPARABLES_FILE, VALUATION_HOMES_FILE, ...evidenceFiles].map((f) => [f, statSync(join(buildDir, f)).size])),
      when: new Date().toISOString(),
      load_average: loadAverage(),
      commit: gitCommit(),
      machine: describeMachine(),
    };
    mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
    const file = join(ROOT, 'bench', 'results', `comparables-valuer-${N}.json`);
    writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
    log(`wrote ${file}`);
    console.log(JSON.stringify({ median_us_per_call: us, ratio_file_to_heap: out.ratio_file_to_heap, page_misses_per_call: out.page_misses_per_call, open_ms: out.open_ms }, null, 2));
    for (const v of Object.values(valuers)) v.close();
    for (const c of Object.values(comps)) c.close();
    store.close();
  } finally {
    cleanup();
  }
}

await main();
