import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { join, resolve } from 'node:path';
import type { Manifest } from '../../schemas/manifest.ts';
import { runBuild } from '../../etl/pipeline/run.ts';

export const ROOT = resolve(import.meta.dirname, '..', '..');
/** Peak RSS of this process so far, in MB, at the end of each stage: the stage where it rose is the one that made the build's peak. */
const peakAfterStage: Record<string, number> = {};
/** The DATA_DIR's peak on disk in MB while each stage ran (sampled): the stage where it peaks is the one whose spill fills the disk. */
const diskPeakMbByStage: Record<string, number> = {};
let stageDiskPeak = 0;
const mbNow = () => ({ rss_mb: Math.round(process.memoryUsage.rss() / 2 ** 20), peak_mb: Math.round(process.resourceUsage().maxRSS / 1024) });

/** The child's log on stderr: each stage as it ends with the memory then (a long build shows where it is, and where it failed) and every warning and error. */
const childLog = {
  info: (o: object, msg?: string) => {
    if (msg !== 'stage done') return;
    const mem = mbNow();
    const stage = (o as { stage?: unknown }).stage;
    if (typeof stage === 'string') {
      peakAfterStage[stage] = mem.peak_mb;
      diskPeakMbByStage[stage] = Math.round(stageDiskPeak / 2 ** 20);
      stageDiskPeak = 0;
    }
    process.stderr.write(`  ${new Date().toISOString().slice(11, 19)} ${JSON.stringify({ ...o, ...mem })}\n`);
  },
  warn: (o: object, msg?: string) => process.stderr.write(`  warn ${msg ?? ''} ${JSON.stringify(o)}\n`),
  error: (o: object, msg?: string) => process.stderr.write(`  error ${msg ?? ''} ${JSON.stringify(o)}\n`),
};

/** What a build in a child process reports: wall and CPU seconds, its own peak RSS (and so far at each stage's end), its DATA_DIR's peak size on disk, the manifest. */
export interface ChildBuild {
  wall: number;
  cpu: number;
  maxRssKb: number;
  peakMbAfterStage: Record<string, number>;
  /** The DATA_DIR's peak on disk in MB sampled while each stage ran (a stage beside the main line shares its samples). */
  diskPeakMbByStage?: Record<string, number>;
  /** The DATA_DIR's bytes (`du -sb`: builds, caches, the build's DuckDB spill) before, at most while building (sampled every 2 s), and after. */
  disk?: { before_bytes: number; peak_bytes: number; after_bytes: number; samples: number };
  manifest: Manifest;
}

const du = async (dir: string) => Number((await promisify(execFile)('du', ['-sb', dir], { encoding: 'utf8' })).stdout.split('\t')[0]);

/**
 * The size of `dir` on disk sampled every `everyMs` while a build runs (a national build's
 * folder must fit beside its sources): `stop` gives the peak and the last size.
 */
function sampleDisk(dir: string, everyMs = 10_000) {
  let peak = 0;
  let samples = 0;
  let busy = false;
  const take = async () => {
    if (busy) return;
    busy = true;
    // A file removed while du walks is a warning on its stderr, not an error: the total stands.
    const n = await du(dir).catch(() => NaN);
    busy = false;
    if (Number.isFinite(n)) {
      peak = Math.max(peak, n);
      stageDiskPeak = Math.max(stageDiskPeak, n);
      samples++;
    }
  };
  const timer = setInterval(() => void take(), everyMs);
  return {
    async stop() {
      clearInterval(timer);
      const after = await du(dir);
      return { peak_bytes: Math.max(peak, after), after_bytes: after, samples: samples + 1 };
    },
  };
}

/**
 * The child side of `buildInChild`: when the bench was started with `--child SOURCES --data
 * DIR`, runs one build, writes its ChildBuild to stdout and exits (so peak RSS is the build's own).
 */
export async function serveChildBuild(values: { child?: string; data?: string }): Promise<void> {
  if (!values.child || !values.data) return;
  const before = await du(values.data).catch(() => 0);
  // Every 2 s: a stage's spill is attributed to it (du over a build folder takes milliseconds).
  const disk = sampleDisk(values.data, 2_000);
  const t0 = performance.now();
  const { manifest } = await runBuild({ dataDir: values.data, sourcesDir: values.child, log: childLog });
  const wall = (performance.now() - t0) / 1000;
  const ru = process.resourceUsage();
  const out: ChildBuild = { wall, cpu: (ru.userCPUTime + ru.systemCPUTime) / 1e6, maxRssKb: ru.maxRSS, peakMbAfterStage: peakAfterStage, diskPeakMbByStage, disk: { before_bytes: before, ...(await disk.stop()) }, manifest };
  process.stdout.write(JSON.stringify(out));
  process.exit(0);
}

/** Runs one build of `sources` into `dataDir` in a child process of `script` (a bench calling serveChildBuild). */
export function buildInChild(script: string, sources: string, dataDir: string, env: NodeJS.ProcessEnv = process.env): ChildBuild {
  // Through the wrapper `npm run etl` uses, so the bench measures the allocator ops run on.
  const r = spawnSync('sh', [join(ROOT, 'scripts/with-jemalloc.sh'), process.execPath, '--import', 'tsx', join(ROOT, script), '--child', sources, '--data', dataDir], {
    cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'inherit'], env,
  });
  if (r.status !== 0) throw new Error(`build failed (exit ${r.status})`);
  return JSON.parse(r.stdout) as ChildBuild;
}
