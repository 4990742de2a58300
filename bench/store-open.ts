/**
 * What the store's in-memory tables cost a worker's warm-up (issue 46, ADR 0015): the production
 * server of this checkout and of another (`--compare-with DIR`, e.g. a worktree of an older
 * commit) on the same bench build, alternated within each run (the order swapped run to run):
 * time from spawn to "build warmed", peak RSS during the warm-up (VmHWM) and RSS 5 s after it.
 *
 *   node --import tsx bench/store-open.ts --addresses 1000000 --runs 3 --compare-with ../wt-old
 *
 * Writes bench/results/store-open-<addresses>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureBenchBuild } from './support/bench-build.ts';
import { describeMachine, gitCommit, loadAverage } from './support/machine.ts';
import { memory } from './support/proc.ts';
import { startServerProcess } from './support/server-process.ts';
import { arg, mb, median } from './support/stats.ts';

const ROOT = resolve(import.meta.dirname, '..');
const ADDRESSES = arg('addresses', 1_000_000);
const RUNS = arg('runs', 3);
const at = process.argv.indexOf('--compare-with');
const OTHER = at >= 0 ? resolve(process.argv[at + 1]!) : undefined;
const log = (msg: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);
const command = `node --import tsx bench/store-open.ts ${process.argv.slice(2).join(' ')}`.trim();
if (!OTHER) throw new Error('--compare-with DIR (another checkout with node_modules) is required');

interface Sample { checkout: 'this' | 'other'; run: number; warm_s: number; peak_rss_mb: number; rss_settled_mb: number; load_average: number[] }

async function measure(dataDir: string, checkout: 'this' | 'other', run: number): Promise<Sample> {
  const load = loadAverage();
  const t0 = performance.now();
  const server = await startServerProcess({ dataDir, root: checkout === 'this' ? ROOT : OTHER, startTimeoutMs: 15 * 60_000 });
  try {
    await server.waitFor((l) => l.msg === 'build warmed', 15 * 60_000, true);
    const warm = (performance.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, 5000));
    const m = memory(server.pid);
    const s: Sample = { checkout, run, warm_s: Math.round(warm * 10) / 10, peak_rss_mb: mb(m.hwm), rss_settled_mb: mb(m.rss), load_average: load };
    log(JSON.stringify(s));
    return s;
  } finally {
    await server.stop();
  }
}

const build = await ensureBenchBuild(ADDRESSES, 42, log);
const samples: Sample[] = [];
for (let run = 0; run < RUNS; run++) {
  const order: Array<'this' | 'other'> = run % 2 === 0 ? ['this', 'other'] : ['other', 'this'];
  for (const c of order) samples.push(await measure(build.dataDir, c, run));
}
const summary = (c: 'this' | 'other') => {
  const s = samples.filter((x) => x.checkout === c);
  return { warm_s: median(s.map((x) => x.warm_s)), peak_rss_mb: median(s.map((x) => x.peak_rss_mb)), rss_settled_mb: median(s.map((x) => x.rss_settled_mb)) };
};
const out = {
  bench: 'store-open', command, addresses: ADDRESSES, runs: RUNS, when: new Date().toISOString(), machine: describeMachine(),
  this: { commit: gitCommit(ROOT), ...summary('this') },
  other: { dir: OTHER, commit: gitCommit(OTHER), ...summary('other') },
  samples,
};
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'results', `store-open-${ADDRESSES}.json`), `${JSON.stringify(out, null, 2)}\n`);
console.log(JSON.stringify({ this: out.this, other: out.other }, null, 2));
