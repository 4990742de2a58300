/**
 * The search engine's candidate pass on its two scratches (issue 46): dense, two 4-byte slots
 * per address in the index plus a 4-byte touched list (12 bytes an address: 360 MB a process
 * at 30M), against sparse (service/search/sparse-scores.ts: a hash table sized by the
 * addresses a query touches). The pass alone, on synthetic posting lists, so it runs at 10M and
 * 30M addresses without a build of that size: what the scratch costs where its arrays no longer
 * fit the processor's caches.
 *
 *   node --expose-gc --import tsx bench/candidate-scratch.ts [--addresses 1000000,10000000,30000000] [--queries 300] [--runs 3]
 *
 * A query is three terms whose document frequencies are drawn log-uniformly from 10 to 250,000
 * (the engine's BIG_TERM), each a sorted random sample of the ordinals, read as the engine reads
 * them (rarest first, the third only while fewer than 20,000 addresses are touched, one
 * contribution per term), then the best 1,000 (the engine's `topK`). Both scratches read the
 * same lists, alternated query by query, after 100 untimed queries (under load the optimising compiler is late); per scale, medians of `--runs` runs. Checks that both
 * pick the same candidates. Writes bench/results/candidate-scratch.json.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { topK } from '../service/search/engine.ts';
import { SparseScores } from '../service/search/sparse-scores.ts';
import { describeMachine, gitCommit, loadAverage } from './support/machine.ts';
import { arg, argStr, median, r2, summary } from './support/stats.ts';

const ROOT = resolve(import.meta.dirname, '..');
const CANDIDATES = 1_000;
const ENOUGH_TOUCHED = 20_000;

/** Seeded uniform [0, 1). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function makeQueries(n: number, count: number, seed: number): Uint32Array[][] {
  const r = rng(seed);
  return Array.from({ length: count }, () => {
    const dfs = [0, 1, 2].map(() => Math.round(Math.exp(Math.log(10) + r() * (Math.log(250_000) - Math.log(10))))).sort((a, b) => a - b);
    return dfs.map((df) => {
      const set = new Set<number>();
      while (set.size < df) set.add(Math.floor(r() * n));
      return Uint32Array.from(set).sort();
    });
  });
}

class Dense {
  private readonly stamps: Uint32Array;
  private readonly acc: Float32Array;
  private readonly touched: Uint32Array;
  private stamp = 0;
  constructor(n: number) {
    const b = new ArrayBuffer(n * 8);
    this.stamps = new Uint32Array(b);
    this.acc = new Float32Array(b);
    this.touched = new Uint32Array(n);
    this.stamps.fill(0);
    this.touched.fill(0);
  }
  run(terms: Uint32Array[], n: number): number[] {
    const first = this.stamp + 1;
    const { stamps, acc, touched } = this;
    let nTouched = 0;
    for (let k = 0; k < terms.length; k++) {
      if (k >= 2 && nTouched >= ENOUGH_TOUCHED) break;
      const list = terms[k]!;
      const stamp = ++this.stamp;
      const w = Math.log(1 + n / list.length);
      for (let i = 0; i < list.length; i++) {
        const ord = list[i]!;
        const slot = ord << 1;
        const last = stamps[slot]!;
        if (last === stamp) continue;
        stamps[slot] = stamp;
        if (last < first) {
          acc[slot + 1] = w;
          touched[nTouched++] = ord;
        } else acc[slot + 1] = acc[slot + 1]! + w;
      }
    }
    return topK(touched.subarray(0, nTouched), acc, CANDIDATES, false);
  }
}

class Sparse {
  private readonly s = new SparseScores();
  private stamp = 0;
  run(terms: Uint32Array[], n: number): number[] {
    const s = this.s;
    s.begin();
    for (let k = 0; k < terms.length; k++) {
      if (k >= 2 && s.count >= ENOUGH_TOUCHED) break;
      const list = terms[k]!;
      const stamp = ++this.stamp;
      const w = Math.log(1 + n / list.length);
      for (let i = 0; i < list.length; i++) s.add(list[i]!, stamp, w);
    }
    return topK(s.ords.subarray(0, s.count), s.scores, CANDIDATES, true);
  }
  get bytes(): number {
    return this.s.bytes;
  }
}

function main(): void {
  const scales = argStr('addresses', '1000000,10000000,30000000').split(',').map(Number);
  const QUERIES = arg('queries', 300);
  const RUNS = arg('runs', 3);
  const log = (m: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${m}`);
  const when = new Date().toISOString();
  const loadStart = loadAverage();
  const out = [];
  for (const n of scales) {
    const queries = makeQueries(n, QUERIES, 46);
    const postings = queries.reduce((a, q) => a + q.reduce((b, l) => b + l.length, 0), 0);
    const runs: Array<{ dense: ReturnType<typeof summary>; sparse: ReturnType<typeof summary>; dense_total_ms: number; sparse_total_ms: number }> = [];
    let sparseBytes = 0;
    for (let run = 0; run < RUNS; run++) {
      // Fresh scratches each run (the dense one written through at creation, as the engine does).
      const dense = new Dense(n);
      const sparse = new Sparse();
      // Warm-up (the JIT, the scratches' first pages and growth), untimed.
      for (const q of queries.slice(0, 100)) (dense.run(q, n), sparse.run(q, n));
      const dm: number[] = [];
      const sm: number[] = [];
      for (let i = 0; i < queries.length; i++) {
        const q = queries[i]!;
        // Alternated, the first of each pair rotated.
        const order = (i + run) % 2 === 0 ? (['d', 's'] as const) : (['s', 'd'] as const);
        const got: Record<string, number[]> = {};
        for (const which of order) {
          const t = performance.now();
          got[which] = which === 'd' ? dense.run(q, n) : sparse.run(q, n);
          (which === 'd' ? dm : sm).push(performance.now() - t);
        }
        if (run === 0 && JSON.stringify([...got.d!].sort((a, b) => a - b)) !== JSON.stringify([...got.s!].sort((a, b) => a - b))) throw new Error(`the scratches pick different candidates for query ${i}`);
      }
      sparseBytes = sparse.bytes;
      runs.push({ dense: summary(dm), sparse: summary(sm), dense_total_ms: r2(dm.reduce((a, b) => a + b, 0)), sparse_total_ms: r2(sm.reduce((a, b) => a + b, 0)) });
      log(`${n} run ${run + 1}/${RUNS}: dense p50 ${runs.at(-1)!.dense.p50_ms} p95 ${runs.at(-1)!.dense.p95_ms} total ${runs.at(-1)!.dense_total_ms} ms; sparse p50 ${runs.at(-1)!.sparse.p50_ms} p95 ${runs.at(-1)!.sparse.p95_ms} total ${runs.at(-1)!.sparse_total_ms} ms`);
    }
    const med = (f: (r: (typeof runs)[number]) => number) => r2(median(runs.map(f)));
    out.push({
      addresses: n,
      queries: QUERIES,
      postings_read: postings,
      dense: { p50_ms: med((r) => r.dense.p50_ms), p95_ms: med((r) => r.dense.p95_ms), p99_ms: med((r) => r.dense.p99_ms), total_ms: med((r) => r.dense_total_ms), scratch_mb: r2((n * 12) / 1048576) },
      sparse: { p50_ms: med((r) => r.sparse.p50_ms), p95_ms: med((r) => r.sparse.p95_ms), p99_ms: med((r) => r.sparse.p99_ms), total_ms: med((r) => r.sparse_total_ms), scratch_mb_after: r2(sparseBytes / 1048576) },
      sparse_over_dense: { p50: med((r) => r.sparse.p50_ms / r.dense.p50_ms), p95: med((r) => r.sparse.p95_ms / r.dense.p95_ms), total: med((r) => r.sparse_total_ms / r.dense_total_ms) },
      raw: runs,
    });
  }
  const result = {
    bench: 'candidate-scratch',
    command: `node --expose-gc --import tsx bench/candidate-scratch.ts --addresses ${scales.join(',')} --queries ${QUERIES} --runs ${RUNS}`,
    when, finished: new Date().toISOString(), commit: gitCommit(), machine: describeMachine(), load_average_start: loadStart, load_average_end: loadAverage(),
    workload: 'per query three terms, document frequencies log-uniform in 10..250,000, sorted random ordinals; the engine\'s candidate pass rules (third term only under 20,000 touched) and topK of 1,000',
    scales: out,
  };
  const file = join(ROOT, 'bench', 'results', 'candidate-scratch.json');
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  log(`wrote ${file}`);
}

main();
