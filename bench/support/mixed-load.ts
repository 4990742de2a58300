/**
 * The whole-system bench's load generator (bench/mixed.ts), run as its own process:
 * `runLoad` spawns this file with `--load-child <spec.json>`.
 *
 * Not autocannon: it reports one latency distribution per instance, and its per-response event
 * does not say which of the mixed requests it answers, so per-endpoint percentiles would need
 * one instance (and its own connections) per endpoint, which is not a mix. Here a fixed number
 * of workers share one keep-alive agent with as many sockets (a closed loop, as autocannon's
 * connections); each takes the next endpoint from a shuffled schedule with the mix's exact
 * shares, sends that endpoint's next request and records the time from `request()` to the
 * response's last byte (performance.now(), sub-millisecond) against that endpoint.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Req } from '../../test/support/endpoint-requests.ts';
import { r2, summaryWithMax } from './stats.ts';

const ROOT = resolve(import.meta.dirname, '../..');

export interface EndpointSpec { name: string; method: 'GET' | 'POST'; requests: Req[]; start: number }
export interface LoadSpec {
  url: string;
  headers: Record<string, string>;
  /**
   * API keys to spread the load over (several customers, as a shared ledger sees them): the
   * w-th connection of a closed loop sends as keys[w % n], the k-th paced arrival as keys[k % n];
   * absent, every request sends `headers` as given.
   */
  keys?: string[];
  connections: number;
  /** timed: closed loop (`connections` workers, each waiting for its answer); paced: open loop at `rate`; preflight: a fixed set. */
  mode: 'timed' | 'paced' | 'preflight';
  seconds: number;
  /** paced: mean arrivals per second (Poisson); at most `connections` in flight, arrivals beyond that are dropped and counted. */
  rate?: number;
  endpoints: EndpointSpec[];
  /** timed: endpoint indices in the order they are sent (repeated); preflight: how many of each endpoint's requests to send. */
  schedule: number[];
  out: string;
}
interface Outcome { status: number; ms: number; code?: string; body?: string; error?: string }

/** Non-2xx outcomes are keyed `<status> <problem code>`; socket errors by their errno code. */
const outcomeKey = (o: Outcome) => (o.error ? `socket ${o.error}` : `${o.status}${o.code ? ` ${o.code}` : ''}`);
const is2xx = (o: Outcome) => !o.error && o.status >= 200 && o.status < 300;

async function loadChild(specPath: string): Promise<void> {
  const spec = JSON.parse(readFileSync(specPath, 'utf8')) as LoadSpec;
  const { hostname, port } = new URL(spec.url);
  const agent = new Agent({ keepAlive: true, maxSockets: spec.connections, maxFreeSockets: spec.connections });
  const keys = spec.keys ?? [];
  const auth = (k: number) => (keys.length === 0 ? spec.headers : { ...spec.headers, authorization: `Bearer ${keys[k % keys.length]}` });
  const send = (method: string, r: Req, k = 0): Promise<Outcome> =>
    new Promise((done) => {
      const t0 = performance.now();
      const headers = r.body === undefined ? auth(k) : { ...auth(k), 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(r.body)) };
      const req = request({ hostname, port, path: r.path, method, agent, headers }, (res) => {
        const status = res.statusCode ?? 0;
        const keep = status < 200 || status >= 300;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => keep && chunks.push(c));
        res.on('end', () => {
          const ms = performance.now() - t0;
          if (!keep) return done({ status, ms });
          const body = Buffer.concat(chunks).toString('utf8');
          let code: string | undefined;
          try {
            code = (JSON.parse(body) as { code?: string }).code;
          } catch {
            /* not problem+json */
          }
          done({ status, ms, ...(code ? { code } : {}), body: body.slice(0, 400) });
        });
        res.on('error', (e: NodeJS.ErrnoException) => done({ status: 0, ms: performance.now() - t0, error: e.code ?? e.message }));
      });
      req.setTimeout(60_000, () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
      req.on('error', (e: NodeJS.ErrnoException) => done({ status: 0, ms: performance.now() - t0, error: e.code ?? e.message }));
      req.end(r.body);
    });

  const n = spec.endpoints.length;
  const lat: number[][] = Array.from({ length: n }, () => []);
  const outcomes: Record<string, number>[] = Array.from({ length: n }, () => ({}));
  const samples: { key: string; method: string; path: string; body?: string; response?: string }[][] = Array.from({ length: n }, () => []);
  const okIndex: number[][] = Array.from({ length: n }, () => []);
  let dropped = 0;
  const record = (e: number, i: number, o: Outcome) => {
    lat[e]!.push(o.ms);
    const key = is2xx(o) ? String(o.status) : outcomeKey(o);
    outcomes[e]![key] = (outcomes[e]![key] ?? 0) + 1;
    if (is2xx(o)) okIndex[e]!.push(i);
    else if (samples[e]!.filter((s) => s.key === key).length < 3) {
      const r = spec.endpoints[e]!.requests[i]!;
      samples[e]!.push({ key, method: spec.endpoints[e]!.method, path: r.path, ...(r.body ? { body: r.body } : {}), ...(o.body ? { response: o.body } : {}), ...(o.error ? { response: o.error } : {}) });
    }
  };

  // Tell the parent the load starts and ends (it meters the server's CPU over exactly that).
  process.stdout.write('start\n');
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  if (spec.mode === 'preflight') {
    // Every endpoint's first schedule[e] requests, interleaved so the server sees a mix.
    const jobs: [number, number][] = [];
    const most = Math.max(...spec.schedule);
    for (let i = 0; i < most; i++) for (let e = 0; e < n; e++) if (i < spec.schedule[e]!) jobs.push([e, i]);
    let next = 0;
    const worker = async (_: unknown, w: number) => {
      while (next < jobs.length) {
        const [e, i] = jobs[next++]!;
        record(e, i, await send(spec.endpoints[e]!.method, spec.endpoints[e]!.requests[i]!, w));
      }
    };
    await Promise.all(Array.from({ length: spec.connections }, worker));
  } else if (spec.mode === 'paced') {
    // Open loop: arrivals at exponential gaps whether or not earlier ones were answered (the
    // latency a customer sees at a sustainable load, not that of a queue the bench builds itself).
    const deadline = t0 + spec.seconds * 1000;
    const cursor = spec.endpoints.map((e) => e.start);
    const rate = spec.rate!;
    let seed = 4242;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) + 1) / 2147483649;
    let pos = 0, inFlight = 0, nextAt = t0;
    const pending: Promise<void>[] = [];
    const fire = () => {
      if (inFlight >= spec.connections) {
        dropped++;
        return;
      }
      const k = pos;
      const e = spec.schedule[pos++ % spec.schedule.length]!;
      const ep = spec.endpoints[e]!;
      const i = cursor[e]! % ep.requests.length;
      cursor[e] = cursor[e]! + 1;
      inFlight++;
      pending.push(send(ep.method, ep.requests[i]!, k).then((o) => {
        inFlight--;
        record(e, i, o);
      }));
    };
    await new Promise<void>((done) => {
      const tick = () => {
        const now = performance.now();
        while (nextAt <= now && nextAt < deadline) {
          fire();
          nextAt += (-Math.log(rand()) * 1000) / rate;
        }
        if (nextAt >= deadline) return done();
        setTimeout(tick, Math.max(0, nextAt - performance.now()));
      };
      tick();
    });
    await Promise.all(pending);
  } else {
    const deadline = t0 + spec.seconds * 1000;
    const cursor = spec.endpoints.map((e) => e.start);
    let pos = 0;
    const worker = async (_: unknown, w: number) => {
      while (performance.now() < deadline) {
        const e = spec.schedule[pos++ % spec.schedule.length]!;
        const ep = spec.endpoints[e]!;
        const i = cursor[e]! % ep.requests.length;
        cursor[e] = cursor[e]! + 1;
        record(e, i, await send(ep.method, ep.requests[i]!, w));
      }
    };
    await Promise.all(Array.from({ length: spec.connections }, worker));
  }
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write('end\n');
  agent.destroy();
  const all = lat.flat();
  writeFileSync(spec.out, JSON.stringify({
    elapsed_s: r2(elapsed),
    generator_cpu_s: r2((cpu.user + cpu.system) / 1e6),
    total: { ...summaryWithMax(all), rps: r2(all.length / elapsed) },
    ...(spec.mode === 'paced' ? { offered_rps: spec.rate, dropped } : {}),
    endpoints: spec.endpoints.map((ep, e) => ({
      name: ep.name,
      client: summaryWithMax(lat[e]!),
      rps: r2(lat[e]!.length / elapsed),
      outcomes: outcomes[e],
      samples: samples[e],
      ...(spec.mode === 'preflight' ? { ok_index: okIndex[e] } : {}),
    })),
  }));
}

export interface ChildEndpoint { name: string; client: ReturnType<typeof summaryWithMax>; rps: number; outcomes: Record<string, number>; samples: { key: string; method: string; path: string; body?: string; response?: string }[]; ok_index?: number[] }
export interface ChildResult {
  elapsed_s: number;
  generator_cpu_s: number;
  total: ReturnType<typeof summaryWithMax> & { rps: number };
  /** paced only: the arrival rate asked for, and arrivals not sent because `connections` were in flight. */
  offered_rps?: number;
  dropped?: number;
  endpoints: ChildEndpoint[];
}

/** Runs the load generator; `hooks` are called when it starts and stops sending. */
export function runLoad(spec: Omit<LoadSpec, 'out'>, dir: string, name: string, hooks: { start?(): void; end?(): void } = {}): Promise<ChildResult> {
  const specPath = join(dir, `load-${name}.json`);
  const out = join(dir, `load-${name}.out.json`);
  writeFileSync(specPath, JSON.stringify({ ...spec, out }));
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--load-child', specPath], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    createInterface({ input: child.stdout! }).on('line', (l) => (l === 'start' ? hooks.start?.() : l === 'end' ? hooks.end?.() : process.stdout.write(`${l}\n`)));
    child.on('exit', (code, signal) => (code === 0 ? res(JSON.parse(readFileSync(out, 'utf8')) as ChildResult) : rej(new Error(`load generator exited ${code ?? signal}`))));
  });
}

/**
 * A pre-flight pass (`probe` requests of each endpoint, interleaved) and each endpoint with only
 * the requests that answered 2xx (a home without valuation evidence answers a documented 404),
 * with its mix weight; endpoints none of whose probes answered 2xx are left out.
 */
export async function keepAnswering2xx(
  base: { url: string; headers: Record<string, string>; connections: number }, mix: [string, number][], candidates: Map<string, Req[]>, probe: number, dir: string, name: string,
): Promise<{ endpoints: EndpointSpec[]; weights: number[]; preflight: ChildResult }> {
  const specs: EndpointSpec[] = mix.map(([n]) => ({ name: n, method: n.startsWith('POST') ? 'POST' : 'GET', requests: candidates.get(n) ?? [], start: 0 }));
  const pre = await runLoad({ ...base, mode: 'preflight', seconds: 0, endpoints: specs, schedule: specs.map((s) => Math.min(s.requests.length, probe)) }, dir, name);
  const keep = specs
    .map((s, e) => ({ s: { ...s, requests: [...(pre.endpoints[e]!.ok_index ?? [])].sort((a, b) => a - b).map((i) => s.requests[i]!) }, w: mix[e]![1] }))
    .filter((x) => x.s.requests.length > 0);
  return { endpoints: keep.map((x) => x.s), weights: keep.map((x) => x.w), preflight: pre };
}

/** A deterministic shuffle of `10 × weight` copies of each endpoint's index: exact shares. */
export function scheduleOf(weights: number[]): number[] {
  const out = weights.flatMap((w, e) => Array.from({ length: w * 10 }, () => e));
  let s = 4242;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

if (process.argv[2] === '--load-child') await loadChild(process.argv[3]!);
