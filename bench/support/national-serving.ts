/**
 * One serving session of the national bench (bench/national.ts): the production server with
 * WORKERS=2 (bench/support/server-process.ts) over one build, driven only through its HTTP
 * API, read only through its log and /proc, so it measures any checkout's server the same way:
 *  1. the machine's memory in use (MemTotal − MemAvailable) just before the server starts;
 *  2. cold start: from the spawn to the first 2xx of every endpoint of the mix (one request
 *     each, sent as soon as the server listens and retried until 2xx: a request's own 4xx, a home
 *     without evidence, moves on to the next request), and to each worker's "build warmed" line;
 *  3. the mix's pre-flight (requests that answer 2xx), a warm-up, then flat out: the closed
 *     loop's 2xx/s;
 *  4. the mix open-loop at `share` of that flat out: each endpoint's client and server p95, its
 *     non-2xx and socket errors, and memory sampled every second (in use, each server process's
 *     RSS, the load generator's RSS; Pss at mid-run);
 *  5. a data swap under the same open-loop load: a copy of the build published into the session's
 *     DATA_DIR as ops publish (etl/publish promoteBuild: `current` switched by rename); failed
 *     requests, memory every second through the new build's warm-up and the old one's drain,
 *     and whether memory came back to its pre-swap level.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, linkSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { promoteBuild } from '../../etl/publish/publish.ts';
import { newBuildId, partialDir } from '../../etl/publish/layout.ts';
import type { Req } from '../../test/support/endpoint-requests.ts';
import { loadAverage } from './machine.ts';
import { backToLevel, machineInUseMb, processShare, rssMb, type ProcessShare } from './meminfo.ts';
import { keepAnswering2xx, runLoad, scheduleOf, type ChildResult, type EndpointSpec } from './mixed-load.ts';
import { startServerProcess, type LogLine, type ServerProcess } from './server-process.ts';
import { median, pacedRate, r2, summaryWithMax } from './stats.ts';

export interface SessionInput {
  /** Which server: 'this' checkout or 'other' (--compare-with). */
  label: string;
  run: number;
  /** The checkout whose server runs (undefined: this one). */
  root?: string;
  /** A DATA_DIR of this session's own whose `current` links to `buildDir`; the swap publishes into it. */
  dataDir: string;
  buildDir: string;
  pgUrl: string;
  keys: string[];
  mix: [string, number][];
  candidates: Map<string, Req[]>;
  connections: number;
  seconds: number;
  warmup: number;
  share: number;
  pacedInFlight: number;
  /** 0: no swap. Otherwise the swap's open-loop run lasts this long and the publish comes `swapAt` s in. */
  swapSeconds: number;
  swapAt: number;
  /** Hard-link the swap build's files instead of copying them (no disk, but the page cache is shared with the old build). */
  swapLink: boolean;
  /** More of the server's environment (beside WORKERS and LEDGER_URL). */
  serverEnv?: Record<string, string>;
  tmp: string;
  log: (msg: string) => void;
}

/** One sample of memory, every second of the measured runs. */
interface MemSample {
  t_s: number;
  phase: string;
  in_use_mb: number;
  server_rss_mb: Record<string, number>;
  server_rss_sum_mb: number;
  /** The servers' Pss summed: a page two workers share counted once (their own memory, whatever else runs on the machine). */
  server_pss_sum_mb: number;
  generator_rss_mb: number | null;
}

/** The old build's resources are closed this long after the switch (service/build/warmer.ts graceMs). */
const SERVER_GRACE_S = 10;
/** The index where the run of `ok` samples that ends `xs` starts (xs.length when the last is not ok). */
function firstOfLastRun<T>(xs: readonly T[], ok: (x: T) => boolean): number {
  let i = xs.length;
  while (i > 0 && ok(xs[i - 1]!)) i--;
  return i;
}

/**
 * After the old build has drained, the load goes on until the servers' memory is back to its
 * level before the swap (BACK_SAMPLES samples in a row, a second apart, within the tolerance)
 * and AFTER_MIN_S have passed, or for at most AFTER_MAX_S. The old build's buffers go back to
 * the system at each worker's next major collection, which at 3M came 10-35 s after the close
 * (bench/results/national-3000000-national-zip-settled.json, memory_samples).
 */
const AFTER_MIN_S = 20;
const AFTER_MAX_S = 90;
const BACK_SAMPLES = 3;
/** How far above its level before the swap the servers' Pss may settle and count as back. */
const tolerance = (beforeMb: number) => Math.max(100, Math.round(0.05 * beforeMb));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const isOk = (s: number | string) => typeof s === 'number' && s >= 200 && s < 300;

/** The load generators this process has running (bench/support/mixed-load.ts children). */
function generatorPids(): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== process.pid) continue;
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('--load-child')) out.push(Number(name));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

/** Memory in use, the median of three readings half a second apart (before anything starts). */
async function steadyInUseMb(): Promise<number> {
  const v: number[] = [];
  for (let i = 0; i < 3; i++) {
    v.push(machineInUseMb());
    if (i < 2) await sleep(500);
  }
  return median(v);
}

/** Samples memory every second, labelled with the phase under way. */
function memorySampler(t0: number, pids: () => number[]) {
  const samples: MemSample[] = [];
  let phase = 'start';
  const read = () => {
    const rss: Record<string, number> = {};
    let pss = 0;
    for (const pid of pids()) {
      const m = rssMb(pid);
      if (m !== undefined) rss[pid] = m;
      pss += processShare(pid)?.pss_mb ?? 0;
    }
    const gen = generatorPids().map(rssMb).filter((x): x is number => x !== undefined);
    samples.push({
      t_s: r2((performance.now() - t0) / 1000), phase, in_use_mb: machineInUseMb(), server_rss_mb: rss,
      server_rss_sum_mb: Object.values(rss).reduce((a, b) => a + b, 0), server_pss_sum_mb: pss, generator_rss_mb: gen.length ? gen.reduce((a, b) => a + b, 0) : null,
    });
  };
  const timer = setInterval(read, 1000);
  return {
    samples,
    setPhase(p: string) {
      phase = p;
      read();
    },
    stop: () => clearInterval(timer),
  };
}

/** From the spawn to the first 2xx of one endpoint. */
async function firstOk(url: string, headers: Record<string, string>, name: string, requests: Req[], t0: number, deadline: number) {
  const method = name.startsWith('POST') ? 'POST' : 'GET';
  const statuses: Record<string, number> = {};
  let i = 0;
  let attempts = 0;
  while (performance.now() < deadline && requests.length > 0) {
    const r = requests[i % requests.length]!;
    attempts++;
    let status: number | string;
    try {
      const res = await fetch(url + r.path, { method, headers: r.body ? { ...headers, 'content-type': 'application/json' } : headers, ...(r.body ? { body: r.body } : {}) });
      await res.arrayBuffer();
      status = res.status;
    } catch (e) {
      status = `socket ${((e as Error).cause as NodeJS.ErrnoException | undefined)?.code ?? (e as Error).message}`;
    }
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (isOk(status)) return { endpoint: name, ms_to_first_2xx: Math.round(performance.now() - t0), attempts, statuses };
    // A 4xx is this request's own answer (a home without evidence): try the next. A 5xx or a
    // socket error is the server not ready: the same request again shortly.
    if (typeof status === 'number' && status >= 400 && status < 500 && status !== 429) i++;
    else await sleep(100);
  }
  return { endpoint: name, ms_to_first_2xx: null, attempts, statuses };
}

/** Per endpoint of one load run: client and server latency, 2xx, non-2xx and socket errors. */
function endpointTable(res: ChildResult, access: { route: string; ms: number }[]) {
  const byRoute = new Map<string, number[]>();
  for (const a of access) (byRoute.get(a.route) ?? byRoute.set(a.route, []).get(a.route)!).push(a.ms);
  return Object.fromEntries(res.endpoints.map((ep) => {
    const non2xx: Record<string, number> = {};
    const socket: Record<string, number> = {};
    let ok = 0;
    for (const [key, c] of Object.entries(ep.outcomes)) {
      if (/^2\d\d$/.test(key)) ok += c;
      else if (key.startsWith('socket ')) socket[key.slice(7)] = c;
      else non2xx[key] = c;
    }
    return [ep.name, { rps: ep.rps, client: ep.client, server: summaryWithMax(byRoute.get(ep.name) ?? []), ok, non2xx, socket_errors: socket, samples: ep.samples.slice(0, 2) }];
  }));
}
export type EndpointTable = ReturnType<typeof endpointTable>;

const failures = (t: Record<string, EndpointTable[string]>) => Object.values(t).reduce((a, e) => a + Object.values(e.non2xx).reduce((x, y) => x + y, 0) + Object.values(e.socket_errors).reduce((x, y) => x + y, 0), 0);
/**
 * Failed requests of several runs by what failed them ("503 ledger_unavailable", "socket
 * TIMEOUT", …): a swap's failures caused by the data (a resource's 503, a 500) are told apart
 * from the ledger's and the load's own.
 */
export function failuresByKind(tables: readonly Record<string, EndpointTable[string]>[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of tables) {
    for (const e of Object.values(t)) {
      for (const [k, c] of Object.entries(e.non2xx)) out[k] = (out[k] ?? 0) + c;
      for (const [k, c] of Object.entries(e.socket_errors)) out[`socket ${k}`] = (out[`socket ${k}`] ?? 0) + c;
    }
  }
  return out;
}

const oks = (t: EndpointTable) => Object.values(t).reduce((a, e) => a + e.ok, 0);

/** A copy of `buildDir` as a new build in `dataDir`'s builds/ (`.partial`, to be promoted): its id. */
function stageSwapBuild(dataDir: string, buildDir: string, link: boolean): string {
  const id = newBuildId(new Date(), randomBytes(2).readUInt16BE(0));
  const to = partialDir(dataDir, id);
  mkdirSync(to, { recursive: true });
  for (const f of readdirSync(buildDir)) {
    if (f === 'manifest.json') continue;
    (link ? linkSync : copyFileSync)(join(buildDir, f), join(to, f));
  }
  const manifest = JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(to, 'manifest.json'), `${JSON.stringify({ ...manifest, build_id: id }, null, 2)}\n`);
  // Written out now, so the publish under load (promoteBuild fsyncs every file) costs what a publish of a finished build costs.
  execFileSync('sync');
  return id;
}

export async function servingSession(inp: SessionInput) {
  const { log } = inp;
  const headers = { authorization: `Bearer ${inp.keys[0]!}` };
  const loadAverageBefore = loadAverage();
  const inUseBefore = await steadyInUseMb();
  const pids = new Set<number>();
  const warmedLines: { build_id: string; at_ms: number; warm_ms: number }[] = [];
  const refused = new Set<string>();
  const warnings: Record<string, number> = {};
  const access: { route: string; ms: number }[] = [];
  let collecting = false;
  const spawnEpoch = Date.now();
  const t0 = performance.now();
  const server: ServerProcess = await startServerProcess({
    dataDir: inp.dataDir, ...(inp.root ? { root: inp.root } : {}), env: { ...inp.serverEnv, WORKERS: '2', LEDGER_URL: inp.pgUrl }, startTimeoutMs: 20 * 60_000,
  });
  const listeningMs = Math.round(performance.now() - t0);
  const seen = (l: LogLine) => {
    if (l.msg === 'request') {
      if (collecting) access.push({ route: String(l.route), ms: Number(l.ms) });
      return;
    }
    if (l.msg === 'listening' && typeof l.pid === 'number') pids.add(l.pid);
    if (typeof l.msg === 'string' && l.msg.startsWith('build refused')) refused.add(String(l.build_id));
    if (l.msg === 'build warmed') warmedLines.push({ build_id: String(l.build_id), at_ms: Date.parse(String(l.time)) - spawnEpoch, warm_ms: Number(l.ms) });
    if (Number(l.level) >= 40 && l.msg !== 'request refused') {
      const key = `${Number(l.level) >= 50 ? 'error' : 'warn'} ${l.msg ?? l.text ?? ''}`;
      warnings[key] = (warnings[key] ?? 0) + 1;
    }
  };
  // The lines so far, then every later one (synchronous: no line can fall between).
  for (const l of server.history()) seen(l);
  server.onLog(seen);
  const serverPids = () => [server.pid, ...pids];
  // A bench that fails or is stopped leaves no server behind.
  const kill = () => {
    try {
      process.kill(server.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
  };
  process.once('exit', kill);
  const mem = memorySampler(t0, serverPids);
  try {
    // 2. Cold start: every endpoint at once, as soon as the server listens.
    mem.setPhase('cold start');
    const deadline = performance.now() + 20 * 60_000;
    const cold = await Promise.all(inp.mix.map(([name]) => firstOk(server.url, headers, name, inp.candidates.get(name) ?? [], t0, deadline)));
    const firstBuild = JSON.parse(readFileSync(join(inp.buildDir, 'manifest.json'), 'utf8')).build_id as string;
    while (warmedLines.filter((w) => w.build_id === firstBuild).length < 2 || pids.size < 2) {
      if (performance.now() > deadline) throw new Error(`${inp.label}: the two workers did not both log "build warmed" within 20 min`);
      if (refused.has(firstBuild)) throw new Error(`${inp.label}: the server refused build ${firstBuild} (its tables do not match that checkout's contracts)`);
      await sleep(200);
    }
    const coldMax = Math.max(...cold.map((c) => c.ms_to_first_2xx ?? Infinity));
    const warmedMs = warmedLines.filter((w) => w.build_id === firstBuild).map((w) => w.at_ms);
    log(`${inp.label} run ${inp.run}: listening after ${listeningMs} ms; first 2xx of every endpoint by ${coldMax} ms (slowest ${cold.reduce((a, c) => ((c.ms_to_first_2xx ?? Infinity) > (a.ms_to_first_2xx ?? Infinity) ? c : a)).endpoint}); workers warmed at ${warmedMs.join(', ')} ms`);

    // 3. Pre-flight, warm-up, flat out.
    mem.setPhase('pre-flight');
    const base = { url: server.url, headers, connections: inp.connections };
    const { endpoints, weights } = await keepAnswering2xx(base, inp.mix, inp.candidates, 200, inp.tmp, `${inp.label}-${inp.run}-preflight`);
    const schedule = scheduleOf(weights);
    const at = (k: number): EndpointSpec[] => endpoints.map((e) => ({ ...e, start: Math.floor((k * e.requests.length) / 5) }));
    const timed = (k: number, seconds: number) => ({ ...base, keys: inp.keys, mode: 'timed' as const, seconds, endpoints: at(k), schedule });
    const paced = (k: number, seconds: number, rate: number) => ({ ...base, keys: inp.keys, connections: inp.pacedInFlight, mode: 'paced' as const, rate, seconds, endpoints: at(k), schedule });
    const measured = async (spec: Parameters<typeof runLoad>[0], name: string, hooks: { start?(): void } = {}) => {
      access.length = 0;
      const res = await runLoad(spec, inp.tmp, `${inp.label}-${inp.run}-${name}`, { start: () => ((collecting = true), hooks.start?.()) });
      await sleep(300); // the last access-log lines
      collecting = false;
      return { res, table: endpointTable(res, access) };
    };
    mem.setPhase('warm-up');
    if (inp.warmup > 0) await runLoad(timed(1, inp.warmup), inp.tmp, `${inp.label}-${inp.run}-warmup`);
    mem.setPhase('flat out');
    const flat = await measured(timed(2, inp.seconds), 'flat-out');
    const flatOut = r2(oks(flat.table) / flat.res.elapsed_s);
    const rate = pacedRate(flatOut, inp.share);
    log(`${inp.label} run ${inp.run}: flat out ${flatOut} 2xx/s (p95 ${flat.res.total.p95_ms} ms, ${failures(flat.table)} failed); open loop at ${rate}/s`);

    // 4. The open loop at `share` of flat out, memory sampled.
    mem.setPhase('paced');
    let pssMid: Record<string, ProcessShare | undefined> = {};
    const pacedT0 = (performance.now() - t0) / 1000;
    const open = await measured(paced(3, inp.seconds, rate), 'paced', {
      start: () => void setTimeout(() => (pssMid = Object.fromEntries(serverPids().map((p) => [p, processShare(p)]))), (inp.seconds * 1000) / 2),
    });
    // Medians of the samples after 3 s of load (the first seconds are of the load starting).
    const underLoad = mem.samples.filter((s) => s.phase === 'paced' && s.t_s >= pacedT0 + 3);
    const pacedInUse = median(underLoad.map((s) => s.in_use_mb));
    const pacedGen = median(underLoad.map((s) => s.generator_rss_mb ?? NaN));
    const pacedRss = median(underLoad.map((s) => s.server_rss_sum_mb));
    const pssSum = median(underLoad.map((s) => s.server_pss_sum_mb));
    log(`${inp.label} run ${inp.run}: open loop ${open.res.total.rps} req/s, ${failures(open.table)} failed; memory in use +${r2(pacedInUse - inUseBefore)} MB (load generator ${pacedGen} MB of it), server RSS sum ${pacedRss} MB, Pss sum ${pssSum} MB; ` +
      `p95 search ${open.table['GET /v1/addresses/search']?.server.p95_ms} ms, record ${open.table['GET /v1/properties/{uprn}']?.server.p95_ms} ms (server)`);

    // 5. A swap under the same load.
    const swapUnderLoad = async () => {
      const id = stageSwapBuild(inp.dataDir, inp.buildDir, inp.swapLink);
      mem.setPhase('swap: before');
      let publishedAt = NaN;
      const now = () => (performance.now() - t0) / 1000;
      const swapT0 = now();
      const giveUp = performance.now() + 20 * 60_000;
      const runs = [await measured(paced(4, inp.swapSeconds, rate), 'swap', {
        start: () => void setTimeout(() => {
          mem.setPhase('swap: published');
          publishedAt = now();
          promoteBuild(inp.dataDir, id).then(() => log(`${inp.label} run ${inp.run}: published ${id}`), (e: unknown) => log(`publish failed: ${(e as Error).message}`));
        }, inp.swapAt * 1000),
      })];
      const newWarm = () => warmedLines.filter((w) => w.build_id === id).map((w) => w.at_ms / 1000);
      const drained = () => (newWarm().length >= 2 ? Math.max(...newWarm()) + SERVER_GRACE_S : Infinity);
      const beforeMb = () => median(mem.samples.filter((s) => s.t_s >= swapT0 + 3 && s.t_s < publishedAt).map((s) => s.server_pss_sum_mb));
      // Where the samples back within the tolerance of `before` that end `xs` start (xs.length: the last is not).
      const backFrom = (xs: readonly MemSample[], before: number) => firstOfLastRun(xs, (s) => backToLevel(before, s.server_pss_sum_mb, tolerance(before)));
      const isBack = (xs: readonly MemSample[]) => xs.length - backFrom(xs, beforeMb()) >= BACK_SAMPLES;
      // The load goes on (in further runs of the generator, a second apart) until both workers
      // serve the new build, the old one has drained and the memory is back (or AFTER_MAX_S).
      const done = () => now() >= drained() + AFTER_MAX_S || (now() >= drained() + AFTER_MIN_S && isBack(mem.samples.filter((s) => s.t_s >= drained() + 3)));
      while (!done() && performance.now() < giveUp && !refused.has(id)) {
        mem.setPhase(Number.isFinite(drained()) ? 'swap: draining' : 'swap: published');
        const left = Number.isFinite(drained()) ? 5 : 30;
        runs.push(await measured(paced(5 + runs.length, left, rate), `swap-${runs.length}`));
      }
      const swapEnd = now();
      const warmedNew = newWarm();
      const drainedAt = warmedNew.length >= 2 ? Math.max(...warmedNew) + SERVER_GRACE_S : NaN;
      const inRun = mem.samples.filter((s) => s.t_s >= swapT0 + 3 && s.t_s <= swapEnd);
      const pre = inRun.filter((s) => s.t_s < publishedAt);
      const during = inRun.filter((s) => s.t_s >= publishedAt && s.t_s < drainedAt + 3);
      const after = inRun.filter((s) => s.t_s >= drainedAt + 3);
      const level = (f: (s: MemSample) => number) => {
        const before = median(pre.map(f));
        const at = (xs: MemSample[]) => (xs.length >= 3 ? median(xs.map(f)) : null);
        return { before_swap: before, peak_during: during.length ? Math.max(...during.map(f)) : null, after_drain: at(after), settled: at(after.slice(-BACK_SAMPLES)) };
      };
      const pssLevel = level((s) => s.server_pss_sum_mb);
      const backAt = backFrom(after, pssLevel.before_swap);
      const back = Number.isFinite(drainedAt) && after.length - backAt >= BACK_SAMPLES;
      const failed = runs.reduce((a, r) => a + failures(r.table), 0);
      const out = {
        method: inp.swapLink ? 'hard links of the build\'s files (page cache shared with the old build)' : 'a copy of the build\'s files (new files, as a new ETL build writes)',
        new_build_id: id,
        refused: refused.has(id),
        published_at_s: r2(publishedAt - swapT0),
        workers_warmed_new_build_at_s: warmedNew.map((t) => r2(t - swapT0)),
        old_build_closed_by_s: Number.isFinite(drainedAt) ? r2(drainedAt - swapT0) : null,
        load_s: r2(swapEnd - swapT0),
        load_runs: runs.length,
        offered_rps: rate,
        requests: runs.reduce((a, r) => a + oks(r.table) + failures(r.table), 0),
        failed_requests: failed,
        failed_by_kind: failuresByKind(runs.map((r) => r.table)),
        endpoints_failed: Object.fromEntries(runs.flatMap((r) => Object.entries(r.table)).filter(([, e]) => failures({ x: e }) > 0).map(([n, e]) => [n, { non2xx: e.non2xx, socket_errors: e.socket_errors, samples: e.samples }])),
        server_pss_sum_mb: pssLevel,
        server_rss_sum_mb: level((s) => s.server_rss_sum_mb),
        machine_in_use_mb: level((s) => s.in_use_mb),
        after_samples: after.length,
        back_to_level_tolerance_mb: tolerance(pssLevel.before_swap),
        back_to_level: back,
        // From the first sample after which every one is within the tolerance.
        back_to_level_after_drain_s: back ? r2(after[backAt]!.t_s - drainedAt) : null,
        back_to_level_on: `the servers' Pss summed (their own memory; the machine's in use moves with whatever else runs): ${BACK_SAMPLES} samples in a row within the tolerance of the level before the swap, within ${AFTER_MAX_S} s of the drain`,
      };
      log(`${inp.label} run ${inp.run}: swap: ${failed} failed of ${out.requests}; workers on the new build at ${JSON.stringify(out.workers_warmed_new_build_at_s)} s; servers' Pss ${JSON.stringify(pssLevel)} MB: back to level ${out.back_to_level} (${out.back_to_level_after_drain_s} s after the drain); in use ${JSON.stringify(out.machine_in_use_mb)}`);
      return out;
    };
    const swap = inp.swapSeconds > 0 ? await swapUnderLoad() : null;
    mem.setPhase('end');
    mem.stop();
    const exit = await server.stop();
    // A second baseline, with the server gone: where others' programs grew or shrank meanwhile, the two differ.
    await sleep(2000);
    const inUseAfter = await steadyInUseMb();
    return {
      label: inp.label,
      run: inp.run,
      server: { command: server.command, root: inp.root ?? '(this checkout)', exit, worker_pids: [...pids] },
      load_average_before: loadAverageBefore,
      load_average_after: loadAverage(),
      memory_in_use_before_server_mb: inUseBefore,
      memory_in_use_after_server_stopped_mb: inUseAfter,
      cold_start: {
        listening_ms: listeningMs,
        first_2xx_every_endpoint_ms: Number.isFinite(coldMax) ? coldMax : null,
        build_warmed_ms: warmedMs,
        endpoints: cold,
      },
      flat_out: { rps_2xx: flatOut, connections: inp.connections, seconds: inp.seconds, client_p95_ms: flat.res.total.p95_ms, failed: failures(flat.table) },
      paced: {
        share_of_flat_out: inp.share,
        offered_rps: rate,
        max_in_flight: inp.pacedInFlight,
        dropped: open.res.dropped ?? 0,
        failed: failures(open.table),
        memory: {
          in_use_under_load_mb: pacedInUse,
          serving_needs_mb: r2(pacedInUse - inUseBefore),
          load_generator_rss_mb: pacedGen,
          serving_needs_without_generator_mb: r2(pacedInUse - inUseBefore - (Number.isFinite(pacedGen) ? pacedGen : 0)),
          serving_needs_against_after_stop_mb: r2(pacedInUse - inUseAfter),
          server_rss_sum_mb: pacedRss,
          server_pss_sum_mb: pssSum,
          per_process_mid_run: pssMid,
        },
        endpoints: open.table,
      },
      swap,
      server_warnings_and_errors: warnings,
      memory_samples: mem.samples,
    };
  } finally {
    mem.stop();
    await server.stop();
    process.off('exit', kill);
  }
}
export type SessionResult = Awaited<ReturnType<typeof servingSession>>;
