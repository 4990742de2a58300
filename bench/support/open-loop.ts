/**
 * An open-loop load generator: requests arrive at a fixed mean rate with exponential gaps
 * (a Poisson process, as independent customers arrive), whether or not earlier ones have
 * been answered. A closed-loop tool (autocannon: N connections, each waiting for its answer)
 * measures saturation; its fixed-rate mode releases each second's requests together, so
 * they queue behind each other and the latency measured is that of the bursts. This is the
 * latency a customer sees at a sustainable load. Run it in its own process.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';

export interface OpenLoopSpec {
  url: string;
  paths: string[];
  headers: Record<string, string>;
  /** Mean arrivals per second. */
  rate: number;
  seconds: number;
  /** Requests in flight beyond this are not sent and are counted as `dropped` (the server is saturated). */
  maxInFlight?: number;
  method?: string;
  bodies?: string[];
  seed?: number;
}

export interface OpenLoopResult {
  rate_rps: number;
  sent: number;
  ok: number;
  non2xx: number;
  errors: number;
  dropped: number;
  /** Failed requests by error code (ECONNRESET, ECONNREFUSED …): what `errors` were. */
  error_codes: Record<string, number>;
  client_p50_ms: number;
  client_p95_ms: number;
  client_p99_ms: number;
}

export async function openLoop(spec: OpenLoopSpec): Promise<OpenLoopResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: spec.maxInFlight ?? 256 });
  const { hostname, port } = new URL(spec.url);
  let seed = spec.seed ?? 4242;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) + 1) / 2147483649;
  const lat: number[] = [];
  let sent = 0, ok = 0, non2xx = 0, errors = 0, dropped = 0, inFlight = 0, next = 0;
  const errorCodes: Record<string, number> = {};
  const maxInFlight = spec.maxInFlight ?? 256;
  const one = () => {
    if (inFlight >= maxInFlight) {
      dropped++;
      return;
    }
    const i = next++;
    const body = spec.bodies?.[i % spec.bodies.length];
    inFlight++;
    sent++;
    const t0 = performance.now();
    const req = request(
      { hostname, port, path: spec.paths[i % spec.paths.length], method: spec.method ?? 'GET', agent, headers: { ...spec.headers, ...(body ? { 'content-type': 'application/json' } : {}) } },
      (res) => {
        res.resume();
        res.on('end', () => {
          inFlight--;
          lat.push(performance.now() - t0);
          if ((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300) ok++;
          else non2xx++;
        });
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => {
      inFlight--;
      errors++;
      const code = e.code ?? e.message;
      errorCodes[code] = (errorCodes[code] ?? 0) + 1;
    });
    req.end(body);
  };
  // Arrival times are planned on the clock, so a late timer sends what is due at once
  // instead of slowing the arrivals down.
  const start = performance.now();
  const end = start + spec.seconds * 1000;
  let due = start;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (due <= now && due < end) {
        one();
        due += (-Math.log(rand()) / spec.rate) * 1000;
      }
      if (due >= end) return resolve();
      setTimeout(tick, Math.max(0, Math.min(due - performance.now(), 5)));
    };
    tick();
  });
  while (inFlight > 0) await new Promise((r) => setTimeout(r, 10));
  agent.destroy();
  lat.sort((a, b) => a - b);
  const p = (q: number) => Math.round((lat[Math.min(lat.length - 1, Math.floor(q * lat.length))] ?? NaN) * 100) / 100;
  return { rate_rps: spec.rate, sent, ok, non2xx, errors, dropped, error_codes: errorCodes, client_p50_ms: p(0.5), client_p95_ms: p(0.95), client_p99_ms: p(0.99) };
}

/** Runs `openLoop(spec)` in a child process (this file, `--child`), so it does not share the caller's CPU thread. */
export function openLoopInChild(spec: OpenLoopSpec, dir: string, name: string): Promise<OpenLoopResult> {
  const specPath = join(dir, `open-loop-${name}.json`);
  writeFileSync(specPath, JSON.stringify(spec));
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--child', specPath], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code, signal) => (code === 0 ? res(JSON.parse(out) as OpenLoopResult) : rej(new Error(`open-loop generator exited ${code ?? signal}`))));
  });
}

if (process.argv[2] === '--child') process.stdout.write(JSON.stringify(await openLoop(JSON.parse(readFileSync(process.argv[3]!, 'utf8')) as OpenLoopSpec)));

